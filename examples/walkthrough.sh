#!/usr/bin/env bash
# The README walkthrough: three players, one round, against `make run` (or $DIXIT_API).
set -euo pipefail
api=${DIXIT_API:-http://127.0.0.1:3000}
# A tiny JSON picker (python3 is all it needs): `... | pick 'd["game_id"]'`
pick() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {"d": d, "json": json}))' "$1"; }
call() {  # call METHOD PATH TOKEN [JSON-BODY]
  curl -s -X "$1" "$api$2" -H "Authorization: Bearer $3" -H 'Content-Type: application/json' ${4:+-d "$4"}
}
register() { curl -s -X POST $api/players -H 'Content-Type: application/json' -d "{\"name\":\"$1\"}" | pick 'd["token"]'; }

ada=$(register Ada); bob=$(register Bob); cy=$(register Cy)

# Ada creates a game and is seated as host; Bob and Cy join; Ada deals.
game=$(call POST /games $ada '{"rules": "classic"}' | pick 'd["game_id"]')
call POST /games/$game/join $bob > /dev/null
call POST /games/$game/join $cy > /dev/null
call POST /games/$game/start $ada | pick 'd["phase"], d["round"]["waiting_for"]'

# Whose turn? round.storyteller_id; each player sees only their own hand (you.hand).
others=""
teller=$(call GET /games/$game $ada | pick 'd["round"]["storyteller_id"]')
for t in $ada $bob $cy; do
  [ "$(call GET /players/me $t | pick 'd["player_id"]')" = "$teller" ] && st=$t || others="$others $t"
done

# The storyteller plays a card from their hand with a clue...
card=$(call GET /games/$game $st | pick 'd["you"]["hand"][0]["card_id"]')
call POST /games/$game/clue $st "{\"card_id\": \"$card\", \"clue\": \"the last door\"}" | pick 'd["phase"]'

# ...with 3 players the others each put forward two cards from their own hands...
for t in $others; do
  two=$(call GET /games/$game $t | pick 'json.dumps([c["card_id"] for c in d["you"]["hand"][:2]])')
  call POST /games/$game/submissions $t "{\"card_ids\": $two}" | pick 'd["phase"]'
done

# ...then, on the shuffled table, each votes for one card that is not their own.
for t in $others; do
  vote=$(call GET /games/$game $t | pick \
    'json.dumps([next(c["card_id"] for c in d["round"]["table"] if c["card_id"] not in d["you"]["submitted"])])')
  call POST /games/$game/votes $t "{\"card_ids\": $vote}" | pick 'd["phase"]'
done

# The reveal: who played what, who voted for what, the points. Then the inbox, most urgent first.
call GET /games/$game $ada | pick 'json.dumps(d["last_round"], indent=2)'
call GET /players/me/games $bob | pick 'd["games"]'
