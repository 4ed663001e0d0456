# lint-args: --os linux --torch 2.5 --cuda yes
import torch

scaler = torch.amp.GradScaler("cuda")
with torch.amp.autocast("cuda", dtype=torch.float16):
    pass
with torch.autocast(device_type="cpu"):
    pass
