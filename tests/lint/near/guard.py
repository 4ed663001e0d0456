# lint-args: --os windows --torch 2.5 --cuda yes
import torch.multiprocessing as mp
from torch.utils.data import DataLoader


def train(rank):
    pass


def never_called_from_module_code():
    return DataLoader(dataset, num_workers=2)


loader = DataLoader(dataset, num_workers=0)


def main():
    mp.spawn(train, nprocs=2)
    return DataLoader(dataset, num_workers=8)


if __name__ == "__main__":
    main()
    mp.spawn(train, nprocs=2)
