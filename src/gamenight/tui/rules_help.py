"""A short rules summary for each game, shown under the keys in the ``?`` help dialog."""

from __future__ import annotations

RULES: dict[str, str] = {
    "snake-eyes": """\
Each player has ten cards, #2 to #12 (no #7), all face up. The player with the dice throws two
dice: the total names a card. If that card is face up on your row, turn it down and throw again.
If it is already down, pay 1 chip to the kitty and the dice go left to the first player still
showing that card, who turns it down and throws. Nobody else has it? You get three chances to
hit a face-up card; failing costs 2 more chips. A 7 costs 2 chips and passes the dice. Snake
Eyes (1+1) on a face-up #2 earns 2 chips from the kitty. First to turn all ten cards down wins
the kitty.""",
    "shake": """\
Each round everyone throws a colored die worth 10-60 points. Matching dice score at once. The
others, highest first, either take their die's points or shake: give them up and throw the six
shake dice. Each shake die scores 10 on a scoring face. After each shake you stop (bank the
points in hand) or shake again; six blanks is a crap-out and the round scores 0. Only one
player per round may shake. After the last round comes the All Shake round: everybody shakes,
biggest total first. Highest total wins.
The odds line shows the exact chance that the next shake craps out.""",
    "snap": """\
Players turn their top card onto their own face-up pile in turn. Whenever two exposed cards
(face-up piles and the centre) show the same picture, call snap: the first good call takes every
matched pile. A false call pays a penalty card to the centre. Lose all your cards and you are
out; the last player holding cards wins.""",
    "slap-the-elephant": """\
Players lay their top card on one centre pile in turn. Slap when the top card is an elephant,
snap your fingers when it is a mouse: the first correct reaction takes the whole pile. A wrong
reaction shares the centre pile out among the other players. With no cards left you are out
(your last card still counts while it is the top of the pile); the last player in wins.""",
    "gambler": """\
Everyone starts with $100. On your turn roll two dice and move round the board: pay or collect
on money spaces, draw a Fortune card, run a horse race, or play the Sweepstakes (put markers on
the Shaker spaces, then roll for prizes). Buy lottery tickets (two numbers) before you roll: a
Lottery space pays the ticket holder whose numbers come up. Short of cash? Take an IOU ($200 from
the bank, repaid with $220). The first player with $1,000 and no IOU wins; an IOU holder who
runs out of cash is out.""",
    "snake-eyes-casino": """\
You bet against the house on the total of two dice. The dice are offered round the table;
whoever accepts them is the shooter. Place chips on areas of the layout: each area lists
what it pays and the house's edge, the share of each wager the house keeps in the long run.
Hardways win when the number is thrown as a pair (3+3 for hard 6) and lose on any 7 or an
easy way. 5, 6 and 8 win on their number and lose on 7. One-roll areas (Field, Any 7,
C&E, Craps, 11) are decided by the next throw.
When everyone is done betting the shooter rolls; winning wagers are paid at the shown odds,
losing ones are taken. A 7 ends the shooter's turn.""",
}


def rules_for(game_id: str) -> str:
    """The summary for ``game_id``, or a pointer to the rules pages for a game without one."""
    return RULES.get(game_id, "See docs/rules/ for this game's rules.")
