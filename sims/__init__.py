"""Rules engines and scoring, one subpackage per mode over shared compiled kernels."""
