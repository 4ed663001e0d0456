# lint-args: --os windows --torch 2.5 --cuda yes
import os

import torch
from torch.utils.data import DataLoader

BATCH = 8
ROOT = os.path.dirname(os.path.abspath(__file__))
transform = None


def helper():
    return 1


def main():
    print("training")
    loader = DataLoader(dataset, num_workers=4)
    for batch in loader:
        pass


if __name__ == "__main__":
    main()
