# lint-args: --os windows --torch 2.5 --cuda yes
from tqdm import tqdm
from tqdm.auto import tqdm as auto_tqdm

for batch in tqdm(loader):  # expect: tqdm info
    pass
bar = auto_tqdm(total=10)  # expect: tqdm info
