# lint-args: --os linux --torch 2.5 --cuda yes
import torch
from torch.cuda import amp
from torch.cpu.amp import autocast as cpu_autocast

scaler = torch.cuda.amp.GradScaler()  # expect: amp warning
with amp.autocast(dtype=torch.float16):  # expect: amp warning
    pass
with cpu_autocast():  # expect: amp warning
    pass


@torch.cuda.amp.custom_fwd  # expect: amp warning
def forward(ctx, x):
    return x
