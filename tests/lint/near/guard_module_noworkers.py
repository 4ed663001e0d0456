# lint-args: --os windows --torch 2.5 --cuda yes
# no worker processes: module code is not run again by anyone
from torch.utils.data import DataLoader

print("starting")
loader = DataLoader(dataset, num_workers=0)
for batch in loader:
    pass
