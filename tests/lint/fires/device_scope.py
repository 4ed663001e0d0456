# lint-args: --os linux --torch 2.5 --cuda no
import sys

import torch


def setup():
    torch.cuda.set_device(0)  # expect: device error
    print(torch.cuda.get_device_name(0))  # expect: device error


def other():
    # a check in another function does not cover this one
    torch.cuda.synchronize()  # expect: device error


def picks():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return device


torch.cuda.manual_seed_all(0)
torch.cuda.empty_cache()
x = torch.zeros(3).cuda()  # expect: device error
if torch.cuda.device_count() > 1:
    pass
