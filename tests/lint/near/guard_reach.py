# lint-args: --os linux --torch 2.5 --cuda yes
# (Linux: the reached worker starts would still show, as info; the heavy module code
# a re-import runs again is silent there.)
# What the call graph cannot resolve reaches nothing: parameters, rebound names, methods
# of classes never instantiated here, lambdas and partials that are never called.
import functools

from torch.utils.data import DataLoader


class Trainer:
    def __init__(self, workers):
        self.workers = workers

    def fit(self):
        return DataLoader(dataset, num_workers=self.workers)

    def describe(self):
        return "trainer"


class Base:
    def run(self):
        return self.load()  # load is only a subclass's: not followed


class Loader(Base):
    def load(self):
        return DataLoader(dataset, num_workers=2)


class Quiet:
    def fit(self):
        return None


def train():
    return DataLoader(dataset, num_workers=4)


def other():
    return None


def call_given(fn, trainer):
    fn()  # a parameter, even when named like a function here
    trainer.fit()
    train = other
    train()


def shadowed(train):
    train()


main = train
main = other  # bound to two things: not followed
make = lambda: DataLoader(dataset, num_workers=2)  # noqa: E731 (never called)
later = functools.partial(train)  # built, never called

t = Trainer(2)  # __init__ starts nothing
print(t.describe())
Quiet().fit()
Base().run()
main()
call_given(train, t)
shadowed(other)
for train in [other]:
    train()
