# lint-args: --os windows --torch 2.5 --cuda yes
import torch.multiprocessing as mp
from torch.utils.data import DataLoader
from multiprocessing import Pool


def train(rank):
    pass


def run():
    loader = DataLoader(dataset, batch_size=8, num_workers=4)  # expect: guard error
    return loader


mp.spawn(train, nprocs=2)  # expect: guard error
pool = Pool(4)  # expect: guard error
run()  # expect: guard warning
