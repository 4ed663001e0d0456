# lint-args: --os linux --torch 2.5 --cuda no
import torch
from torch.utils.data import DataLoader

if __name__ == "__main__":
    loader = DataLoader(dataset, pin_memory=torch.cuda.is_available())
    other = DataLoader(dataset, pin_memory=False)
