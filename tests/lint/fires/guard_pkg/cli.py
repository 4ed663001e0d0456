import guard_pkg.loop
from . import loop
from .loop import Runner
from .loop import helper as go


def main():
    loop.train(3)  # expect: guard error


print("starting")  # expect: guard warning
main()  # expect: guard warning
go()  # expect: guard error
Runner().fit()  # expect: guard error
guard_pkg.loop.train(1)  # expect: guard error
