# Only what starts no workers runs on import; train() runs under the guard. A module
# outside the linted tree (torch, an uninstalled package) is never followed.
from torch.utils.data import DataLoader as train_loader
from other_pkg.loop import train as other_train

from .loop import describe, train

NAME = describe()
other_train()


def unused():
    return train_loader(None, num_workers=2)


if __name__ == "__main__":
    train()
