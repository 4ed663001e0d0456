from torch.utils.data import DataLoader

loader = DataLoader(dataset, num_workers=4)
HELP = """two
lines"""
