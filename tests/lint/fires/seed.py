# lint-args: --os linux --torch 2.5 --cuda yes
import torch

torch.manual_seed(0)
torch.backends.cudnn.benchmark = True  # expect: seed info
