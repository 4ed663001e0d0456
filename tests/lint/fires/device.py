# lint-args: --os linux --torch 2.5 --cuda no
import torch

model = Net().cuda()  # expect: device error
x = torch.randn(3).to("cuda")  # expect: device error
dev = torch.device("cuda:0")  # expect: device error
y = torch.zeros(3, device="cuda")  # expect: device error
state = torch.load("m.pt", weights_only=True)  # expect: device info
rank = 0
z = torch.ones(2).to(f"cuda:{rank}")  # expect: device error
gpu_state = torch.load("gpu.pt", weights_only=True, map_location="cuda:0")  # expect: device error
