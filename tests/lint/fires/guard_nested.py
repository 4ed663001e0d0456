# lint-args: --os windows --torch 2.5 --cuda yes
# Module code nested in a top-level if / try runs on import all the same.
import sys

from torch.utils.data import DataLoader


def main():
    return DataLoader(dataset, num_workers=2)  # expect: guard error


try:
    loader = DataLoader(dataset, batch_size=8, num_workers=2)  # expect: guard error
    print("loaded")  # expect: guard warning
except ImportError:
    pass

if len(sys.argv) > 1:
    main()  # expect: guard warning
    for epoch in range(3):  # expect: guard warning
        pass

if __name__ != "__main__":
    print("imported")  # expect: guard warning
else:
    main()

if __name__ == "__main__":
    main()
else:
    print("a worker, or an import")  # expect: guard warning
