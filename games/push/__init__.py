"""Live pads by push: a "this changed" event on a Server-Sent-Events stream per rubber and per
club's console (`views`), fanned out through Redis pub/sub between web processes, or in this
process when there is no Redis (`broker`), published after each commit that changes what a pad
or a console shows (`hooks`)."""
