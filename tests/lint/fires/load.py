# lint-args: --os linux --torch 2.6 --cuda yes
import torch as T

state = T.load("model.pt")  # expect: load error
