import torch
from torch.utils.data import DataLoader


def train(loader):
    for batch in loader:
        pass


EPOCHS = 3
# build everything
if __name__ == "__main__":
    loader = DataLoader(dataset, num_workers=4,)
    if loader:
        train(loader)  # train

        print("done")
    state = torch.load(
        "m.pt", map_location="cpu", weights_only=True,  # the checkpoint
    )
