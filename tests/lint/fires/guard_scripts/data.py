from torch.utils.data import DataLoader


def make_loader(ds):
    return DataLoader(ds, num_workers=2)
