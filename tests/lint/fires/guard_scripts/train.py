# lint-args: --os windows --torch 2.5 --cuda yes
# Scripts in a folder that is no package: `from data import ...` is the script's own
# folder's data.py.
from data import make_loader

loader = make_loader(dataset)  # expect: guard error
