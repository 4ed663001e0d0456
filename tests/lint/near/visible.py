# lint-args: --os linux --torch 2.5 --cuda yes
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "1"
import torch

torch.cuda.set_device(0)  # noqa: device
