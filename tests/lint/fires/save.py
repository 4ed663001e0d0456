# lint-args: --os linux --torch 2.5 --cuda yes
import torch

torch.save(model.state_dict(), "checkpoint.pt")  # expect: save warning
torch.save(model.state_dict(), f"ckpt_{epoch}.pt")  # expect: save warning
