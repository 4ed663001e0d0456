# lint-args: --os linux --torch 2.5 --cuda no
import sys

import torch
from torch import cuda


def under_if():
    if torch.cuda.is_available():
        torch.cuda.set_device(0)
        print(torch.cuda.get_device_name(0))
    else:
        print("cpu")


def early_return(model):
    if not cuda.is_available():
        return model
    torch.cuda.synchronize()
    return model.cuda()


def flag():
    use_cuda = torch.cuda.is_available()
    if use_cuda:
        torch.cuda.synchronize()
    n = torch.cuda.device_count() and torch.cuda.current_device()
    return n


def elif_branch(want):
    if not torch.cuda.is_available():
        pass
    elif want:
        torch.cuda.synchronize()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.zeros(3).to(device)
    return x


if not torch.cuda.is_available():
    sys.exit("this script needs a CUDA device")


def later():
    torch.cuda.synchronize()
