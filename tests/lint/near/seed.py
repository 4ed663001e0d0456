# lint-args: --os linux --torch 2.5 --cuda yes
import torch

torch.backends.cudnn.benchmark = True
