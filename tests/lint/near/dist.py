# lint-args: --os windows --torch 2.5 --cuda yes
import os
import torch.distributed as dist

os.environ["USE_LIBUV"] = "0"
dist.init_process_group(backend="gloo")
