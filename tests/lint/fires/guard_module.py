# lint-args: --os windows --torch 2.5 --cuda yes
import torch
from torch import nn
from torch.utils.data import DataLoader


class Net(nn.Module):
    pass


def build():
    return make_loader()


def make_loader():
    # reached from module code through build(): two calls deep
    return DataLoader(dataset, num_workers=2)  # expect: guard error


print("starting")  # expect: guard warning
model = Net()  # expect: guard warning
head = nn.Linear(4, 2)  # expect: guard warning
for epoch in range(10):  # expect: guard warning
    pass
with open("log.txt", "w", encoding="utf-8") as fh:  # expect: guard warning
    fh.write("x")
torch.save(model.state_dict(), "m.pt")  # noqa: save  # expect: guard warning
loader = build()  # expect: guard warning

if __name__ == "__main__":
    print("guarded")
    for epoch in range(10):
        pass
