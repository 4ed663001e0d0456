# lint-args: --os linux --torch 2.5 --cuda yes
import io
import os
import torch

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
tmp = "checkpoint.pt.tmp"
torch.save(model.state_dict(), tmp)
os.replace(tmp, "checkpoint.pt")
