"""The sample bank's playbook conversation in the demo (demo/playbook_walk.py): which playbook, the
user's words, and the call its last section needs for each security of the deals."""

from __future__ import annotations

from pathlib import Path

SAMPLE_PLAYBOOKS = Path(__file__).resolve().parents[3] / "examples" / "bank" / "playbooks"
PLAYBOOK = "client-securities-portfolio"
REQUEST = "Покажи портфель ценных бумаг клиента Михалова"
# the last section (securities): one call per distinct value of a column of the deals
FOLLOW_UP_API = "API_Sec_FindByISIN"
FOLLOW_UP_COLUMN = "ISIN"
