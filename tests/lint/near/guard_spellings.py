# lint-args: --os windows --torch 2.5 --cuda yes
# The __main__ guard in its spellings: either side, parentheses, one operand of `and`,
# the else of `!=`, nested in a try.
import sys

from torch.utils.data import DataLoader


def main():
    return DataLoader(dataset, num_workers=2)


if '__main__' == __name__:
    main()

if (__name__ == "__main__"):
    print("main")

if __name__ == "__main__" and len(sys.argv) > 1:
    for epoch in range(3):
        main()

if __name__ != "__main__":
    pass
else:
    main()

try:
    if __name__ == "__main__":
        loader = DataLoader(dataset, num_workers=4)
        main()
except KeyboardInterrupt:
    pass
