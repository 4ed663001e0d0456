# lint-args: --os linux --torch 2.5 --cuda no
from torch.utils.data import DataLoader

if __name__ == "__main__":
    loader = DataLoader(dataset, pin_memory=True)  # expect: pin warning
