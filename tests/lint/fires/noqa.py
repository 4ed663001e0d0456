# lint-args: --os linux --torch 2.6 --cuda yes
import torch

a = torch.load("a.pt")  # noqa: load
b = torch.load("b.pt")  # noqa
c = torch.load("c.pt")  # noqa: save  # expect: load error
