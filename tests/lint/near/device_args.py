# lint-args: --os linux --torch 2.5 --cuda no
# The device given from outside (arguments) or chosen with a fallback is never a fixed
# "cuda"; torch.load with a map_location that is not a fixed CUDA device. No function
# here asks torch.cuda.is_available() before its uses, except where the device is chosen.
import argparse

import torch


def from_args(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args(argv)
    model = Net().to(args.device)
    model = model.to(torch.device(args.device))
    batch = torch.zeros(3, device=args.device)
    name = f"{args.device}"
    state = torch.load("m.pt", weights_only=True, map_location=args.device)
    return model, batch.to(name), state


def loads(path):
    a = torch.load(path, weights_only=True, map_location="cpu")
    b = torch.load(path, weights_only=True, map_location=lambda storage, loc: storage)
    c = torch.load(path, weights_only=True, map_location=torch.device("cpu"))
    return a, b, c


def chosen(path):
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.load(path, weights_only=True, map_location=dev), torch.ones(2).to(dev)
