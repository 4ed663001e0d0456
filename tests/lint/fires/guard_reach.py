# lint-args: --os windows --torch 2.5 --cuda yes
# Worker starts reached through methods (on an instantiation, self, a variable bound to
# one, a base class's), __init__ on instantiation, an alias and functools.partial; each
# reported where it starts, and each module-level call as code a re-import runs again.
import functools

from torch.utils.data import DataLoader
from multiprocessing import Pool


class Trainer:
    def __init__(self, workers):
        self.pool = Pool(workers)  # expect: guard error

    def fit(self):
        self._loader()

    def _loader(self):
        return DataLoader(dataset, num_workers=4)  # expect: guard error


class Sub(Trainer):
    def run(self):
        return DataLoader(dataset, num_workers=2)  # expect: guard error


def train(epochs):
    return DataLoader(dataset, num_workers=epochs)  # expect: guard error


def evaluate():
    return DataLoader(dataset, num_workers=1)  # expect: guard error


main = train
run_eval = functools.partial(evaluate)

Trainer(2).fit()  # expect: guard warning
main(3)  # expect: guard warning
run_eval()  # expect: guard warning
s = Sub(1)  # expect: guard warning
s.run()  # expect: guard warning
