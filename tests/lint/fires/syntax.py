# lint-args: --os linux --torch 2.6 --cuda yes
import torch

def broken(:  # expect: syntax error
    pass

state = torch.load("m.pt")  # expect: load error
