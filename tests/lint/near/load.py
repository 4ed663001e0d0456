# lint-args: --os linux --torch 2.6 --cuda yes
import torch

state = torch.load("model.pt", weights_only=True)
other = pickle.load(open("x.pkl", "rb"))
