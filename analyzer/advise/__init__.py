"""Decision analysis of one position: reading it, dealing what the seat cannot see, paired rollouts."""
