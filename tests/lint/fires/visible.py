# lint-args: --os linux --torch 2.5 --cuda yes
import os
import torch

n = torch.cuda.device_count()
torch.cuda.set_device(0)
os.environ["CUDA_VISIBLE_DEVICES"] = "1"  # expect: visible warning
