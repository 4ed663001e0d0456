# lint-args: --os linux --torch 2.5 --cuda no
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
model = Net().to(device)
x = torch.randn(3).cuda()
state = torch.load("m.pt", weights_only=True, map_location=device)
