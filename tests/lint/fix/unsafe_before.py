import torch
from torch.utils.data import DataLoader


def train(loader):
    for batch in loader:
        pass


EPOCHS = 3
# build everything
loader = DataLoader(dataset, num_workers=4,)
if loader:
    train(loader)  # train

    print("done")
state = torch.load(
    "m.pt",  # the checkpoint
)
