"""Several server processes on one store and one Redis: ownership leases, messages between
processes, and rooms relayed from their owner."""
