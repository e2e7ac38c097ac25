"""Chapter 5 (戦闘): a combat's flow, C-card activation, attack, defence, escape and damage,
同調 and 格闘, each step an event. `state.py` holds the model on `ChojinState.combat`."""
