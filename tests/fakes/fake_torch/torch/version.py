__version__ = "2.5.1+cu124"
cuda = "12.4"
hip = None
git_version = "0000000"
