"""A run's statistics as streamed, exact, mergeable aggregates (what its report is built from).

Workers fold each batch of games into a :class:`RunAggregate` and the main process merges them, so
no game is analysed twice and no process holds every game: the aggregate of a million games takes
the memory of a few thousand numbers (see :mod:`cardtable.sim.tally`). Everything is exact (counts,
integer sums of win shares in :data:`~cardtable.sim.tally.WIN_UNITS`), so the merged aggregate, and
the report drawn from it, are the same bit for bit however the games were split into batches and
whatever order the batches finished in: one worker, sixteen, or a Ray cluster.

Paired comparisons need game ``i`` of both settings. A batch plays every pending setting of its game
indices, so pairs usually meet inside one worker; a game whose partner is elsewhere (a resumed run,
whose other half is already on disk) waits in ``pending`` until the partner arrives, in this
aggregate or in one merged into it. Only games whose partner has not been played yet wait, so a
complete run leaves ``pending`` empty.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from cardtable.sim.tally import WIN_UNITS, Tally, merge_counts, win_units

SHARE2 = WIN_UNITS * WIN_UNITS
"""The unit of a share averaged over up to 16 seats (a whole number of these, exactly)."""

CardKey = tuple[str, str, str]
"""(how the card was used, its name, the agent spec)."""

MIN_CARD_SEATS = 20
"""A card's win contribution is compared only when, in each setting, the agent used it in at least
this many (game, seat) pairs and did not in as many: with fewer, the delta method's interval is too
narrow to trust (a card used once has a win share of 0 or 1 and no spread)."""


class CardUses:
    """One setting's card uses per (how, name, agent): in how many (game, seat) pairs the agent used
    the card, how often, and the win units in those pairs; and per agent its (game, seat) pairs and
    win units (the data of the report's per-card rows)."""

    __slots__ = ("games", "seats_of", "uses", "wins", "wins_of")

    def __init__(self) -> None:
        self.seats_of: dict[str, int] = {}
        self.wins_of: dict[str, int] = {}
        self.games: dict[CardKey, int] = {}
        self.uses: dict[CardKey, int] = {}
        self.wins: dict[CardKey, int] = {}

    def add(self, seats: Sequence[str], wins: Sequence[int], cards: Sequence[Mapping[str, Mapping[str, int]]]) -> None:
        for seat, spec in enumerate(seats):
            win = wins[seat]
            self.seats_of[spec] = self.seats_of.get(spec, 0) + 1
            self.wins_of[spec] = self.wins_of.get(spec, 0) + win
            for how, names in cards[seat].items():
                for name, count in names.items():
                    key = (how, name, spec)
                    self.games[key] = self.games.get(key, 0) + 1
                    self.uses[key] = self.uses.get(key, 0) + int(count)
                    self.wins[key] = self.wins.get(key, 0) + win

    def merge(self, other: CardUses) -> None:
        for mine, theirs in (
            (self.seats_of, other.seats_of),
            (self.wins_of, other.wins_of),
            (self.games, other.games),
            (self.uses, other.uses),
            (self.wins, other.wins),
        ):
            merge_counts(mine, theirs)


class SettingAggregate:
    """Everything the report says about one setting's games, kept as counts and exact sums."""

    def __init__(self) -> None:
        self.games = 0
        self.players = 0
        self.first_seen: dict[str, tuple[int, int]] = {}
        """Each agent spec's first (game index, seat): the report lists agents in this order."""
        self.agent_wins: dict[str, int] = {}
        self.agent_seats: dict[str, int] = {}
        self.seat_wins: list[int] = []
        self.first_wins = 0
        self.first_games = 0
        self.first_seats: dict[int, int] = {}
        self.total_wins = 0
        self.turns = Tally()
        self.decisions = Tally()
        self.forced = Tally()
        self.unforced_lines = 0
        """Lines of a run made before forced decisions were counted (then there is no forced statistic)."""
        self.scores_by_agent: dict[str, Tally] = {}
        self.scores_by_seat: list[Tally] = []
        self.reasons: dict[str, int] = {}
        self.truncated = 0
        self.details: dict[str, dict[str, int]] = {}
        self.cards = CardUses()
        self.cardless_lines = 0
        self.seconds = 0.0

    def _grow(self, players: int) -> None:
        while len(self.seat_wins) < players:
            self.seat_wins.append(0)
            self.scores_by_seat.append(Tally())
        self.players = max(self.players, players)

    def add(self, line: Mapping[str, Any], wins: Sequence[int]) -> None:
        """Fold in one results line (``wins``: its win shares in units)."""
        seats: Sequence[str] = line["seats"]
        self._grow(len(seats))
        self.games += 1
        index = int(line["index"])
        for seat, spec in enumerate(seats):
            where = (index, seat)
            if spec not in self.first_seen or where < self.first_seen[spec]:
                self.first_seen[spec] = where
            self.agent_wins[spec] = self.agent_wins.get(spec, 0) + wins[seat]
            self.agent_seats[spec] = self.agent_seats.get(spec, 0) + 1
            self.seat_wins[seat] += wins[seat]
        total = sum(wins)
        self.total_wins += total
        first = line.get("first")
        if first is not None:
            self.first_wins += wins[first]
            self.first_games += 1
            self.first_seats[int(first)] = self.first_seats.get(int(first), 0) + 1
        result = line.get("result")
        if result is not None:
            for seat, score in enumerate(result["scores"]):
                value = float(score)
                self.scores_by_seat[seat].add(value)
                spec = seats[seat]
                tally = self.scores_by_agent.get(spec)
                if tally is None:
                    tally = self.scores_by_agent[spec] = Tally()
                tally.add(value)
            for key, value in (result.get("details") or {}).items():
                if isinstance(value, str):
                    counts = self.details.setdefault(key, {})
                    counts[value] = counts.get(value, 0) + 1
        reason = str(line["reason"])
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.truncated += bool(line.get("truncated"))
        self.turns.add(int(line["turns"]))
        self.decisions.add(int(line["decisions"]))
        if "forced" in line:
            self.forced.add(int(line["forced"]))
        else:
            self.unforced_lines += 1
        cards = line.get("cards")
        if cards is None:
            self.cardless_lines += 1
        else:
            self.cards.add(seats, wins, cards)
        self.seconds += float(line.get("seconds", 0.0))

    def merge(self, other: SettingAggregate) -> None:
        self._grow(other.players)
        self.games += other.games
        for spec, where in other.first_seen.items():
            if spec not in self.first_seen or where < self.first_seen[spec]:
                self.first_seen[spec] = where
        merge_counts(self.agent_wins, other.agent_wins)
        merge_counts(self.agent_seats, other.agent_seats)
        for seat, w in enumerate(other.seat_wins):
            self.seat_wins[seat] += w
            self.scores_by_seat[seat].merge(other.scores_by_seat[seat])
        self.first_wins += other.first_wins
        self.first_games += other.first_games
        merge_counts(self.first_seats, other.first_seats)
        self.total_wins += other.total_wins
        self.turns.merge(other.turns)
        self.decisions.merge(other.decisions)
        self.forced.merge(other.forced)
        self.unforced_lines += other.unforced_lines
        for spec, tally in other.scores_by_agent.items():
            self.scores_by_agent.setdefault(spec, Tally()).merge(tally)
        merge_counts(self.reasons, other.reasons)
        self.truncated += other.truncated
        for key, counts in other.details.items():
            merge_counts(self.details.setdefault(key, {}), counts)
        self.cards.merge(other.cards)
        self.cardless_lines += other.cardless_lines
        self.seconds += other.seconds

    def agents(self) -> list[str]:
        """The agent specs in order of first appearance (game index, then seat)."""
        return sorted(self.first_seen, key=lambda spec: self.first_seen[spec])


# -- paired comparisons ---------------------------------------------------------------------------

Half = tuple[Any, ...]
"""What a comparison needs of one game: (turns, decisions, forced, first, wins in units, listed
positions, seat specs, reason, cards)."""


def half(line: Mapping[str, Any], wins: Sequence[int]) -> Half:
    return (
        int(line["turns"]),
        int(line["decisions"]),
        line.get("forced"),
        line.get("first"),
        tuple(wins),
        tuple(line["agents"]),
        tuple(line["seats"]),
        str(line["reason"]),
        line.get("cards"),
    )


class PairedSums:
    """Integer sums over paired games of x (the baseline's value), y (the other's) and (y - x)²:
    a paired difference of means and its t interval follow exactly. ``scale``: values are whole
    numbers of 1/scale."""

    __slots__ = ("n", "scale", "sdd", "sx", "sy")

    def __init__(self, scale: int = 1) -> None:
        self.scale = scale
        self.n = 0
        self.sx = 0
        self.sy = 0
        self.sdd = 0

    def add(self, x: int, y: int) -> None:
        self.n += 1
        self.sx += x
        self.sy += y
        self.sdd += (y - x) * (y - x)

    def merge(self, other: PairedSums) -> None:
        self.n += other.n
        self.sx += other.sx
        self.sy += other.sy
        self.sdd += other.sdd


# Card features of one agent in one paired game, per arm: uw (win units at the agent's seats that
# used the card), u (those seats), w (win units at all the agent's seats), m (the agent's seats).
_F = ("uwA", "uA", "uwB", "uB")
_G = ("wA", "wB", "m")
_FF = tuple((i, j) for i in range(4) for j in range(i, 4))
_GG = tuple((i, j) for i in range(3) for j in range(i, 3))


class CardPairs:
    """Sums for the paired interval of the shift in each card's win contribution (win share in the
    games an agent used the card minus in those it did not), by the delta method: per paired game,
    the contribution's influence in each arm is linear in the features above, so the variance of
    its paired difference follows from sums of the features and their products. Sums that only
    involve w and m are per agent; the rest are per card and change only in games that used it."""

    __slots__ = ("agent", "card")

    def __init__(self) -> None:
        self.agent: dict[str, list[int]] = {}
        """spec -> [games, S wA, S wB, S m, then S g_i g_j for i <= j]."""
        self.card: dict[CardKey, list[int]] = {}
        """(how, name, spec) -> [S f_i (4), S f_i f_j (i <= j, 10), S f_i g_k (12)]."""

    def add(self, a: Half, b: Half) -> None:
        seats, cards_a, cards_b = a[6], a[8], b[8]
        wins_a, wins_b = a[4], b[4]
        if cards_a is None or cards_b is None or seats != b[6]:
            return
        per_spec: dict[str, list[int]] = {}
        used: dict[CardKey, list[int]] = {}
        for seat, spec in enumerate(seats):
            g = per_spec.get(spec)
            if g is None:
                g = per_spec[spec] = [0, 0, 0]
            wa, wb = wins_a[seat], wins_b[seat]
            g[0] += wa
            g[1] += wb
            g[2] += 1
            for arm, cards, w in ((0, cards_a, wa), (2, cards_b, wb)):
                for how, names in cards[seat].items():
                    for name in names:
                        f = used.get((how, name, spec))
                        if f is None:
                            f = used[(how, name, spec)] = [0, 0, 0, 0]
                        f[arm] += w
                        f[arm + 1] += 1
        for spec, g in per_spec.items():
            acc = self.agent.get(spec)
            if acc is None:
                acc = self.agent[spec] = [0] * (4 + len(_GG))
            acc[0] += 1
            acc[1] += g[0]
            acc[2] += g[1]
            acc[3] += g[2]
            for k, (i, j) in enumerate(_GG):
                acc[4 + k] += g[i] * g[j]
        for key, f in used.items():
            g = per_spec[key[2]]
            acc = self.card.get(key)
            if acc is None:
                acc = self.card[key] = [0] * (4 + len(_FF) + 12)
            for i in range(4):
                acc[i] += f[i]
            for k, (i, j) in enumerate(_FF):
                acc[4 + k] += f[i] * f[j]
            for i in range(4):
                for k in range(3):
                    acc[14 + 3 * i + k] += f[i] * g[k]

    def merge(self, other: CardPairs) -> None:
        _add_sums(self.agent, other.agent)
        _add_sums(self.card, other.card)

    def shift(self, key: CardKey) -> dict[str, float] | None:
        """The card's win contribution in each arm and the shift's estimate and standard error
        (in shares), or None when an arm has fewer than :data:`MIN_CARD_SEATS` seats with or without
        the card. Computed in
        exact rational arithmetic, so identical arms give a standard error of exactly 0."""
        agent = self.agent.get(key[2])
        card = self.card.get(key)
        if agent is None or card is None or agent[0] < 2:
            return None
        n = agent[0]
        s1: dict[str, int] = dict(zip(_F, card[:4], strict=True))
        s1.update(wA=agent[1], wB=agent[2], m=agent[3])
        names = (*_F, *_G)
        prod: dict[tuple[str, str], int] = {}
        for k, (i, j) in enumerate(_FF):
            prod[(_F[i], _F[j])] = prod[(_F[j], _F[i])] = card[4 + k]
        for i in range(4):
            for k in range(3):
                prod[(_F[i], _G[k])] = prod[(_G[k], _F[i])] = card[14 + 3 * i + k]
        for k, (i, j) in enumerate(_GG):
            prod[(_G[i], _G[j])] = prod[(_G[j], _G[i])] = agent[4 + k]
        coef: dict[str, Fraction] = dict.fromkeys(names, Fraction(0))
        out: dict[str, float] = {}
        contribution: dict[str, Fraction] = {}
        w = Fraction(1, WIN_UNITS)
        for arm, sign in (("A", -1), ("B", 1)):
            used, unused = s1["u" + arm], s1["m"] - s1["u" + arm]
            if used < MIN_CARD_SEATS or unused < MIN_CARD_SEATS:
                return None
            u_bar, v_bar = Fraction(used, n), Fraction(unused, n)
            p_u = Fraction(s1["uw" + arm], used) * w
            p_n = Fraction(s1["w" + arm] - s1["uw" + arm], unused) * w
            out["used" + arm], out["not" + arm] = float(p_u), float(p_n)
            contribution[arm] = p_u - p_n
            # The influence of one game on p_u - p_n, linear in its features (w in units).
            coef["uw" + arm] += sign * (1 / u_bar + 1 / v_bar) * w
            coef["u" + arm] += sign * (-p_u / u_bar - p_n / v_bar)
            coef["w" + arm] += sign * (-1 / v_bar) * w
            coef["m"] += sign * (p_n / v_bar)
        # Var of the paired influence: sum c_x c_y Cov(x, y), Cov from the exact sums.
        var = sum(
            (coef[x] * coef[y] * (prod[(x, y)] - Fraction(s1[x] * s1[y], n)) for x in names for y in names),
            Fraction(0),
        ) / (n - 1)
        out["contributionA"], out["contributionB"] = float(contribution["A"]), float(contribution["B"])
        out["shift"] = float(contribution["B"] - contribution["A"])
        out["se"] = math.sqrt(max(0.0, float(var / n)))
        out["n"] = n
        return out


def _add_sums(mine: dict[Any, list[int]], theirs: Mapping[Any, list[int]]) -> None:
    for key, values in theirs.items():
        acc = mine.get(key)
        if acc is None:
            mine[key] = list(values)
        else:
            for k, v in enumerate(values):
                acc[k] += v


class PairAggregate:
    """One comparison (a setting against its baseline) over the game indices both played."""

    def __init__(self, base_listed: Sequence[str], other_listed: Sequence[str]) -> None:
        self.base_listed = tuple(base_listed)
        self.other_listed = tuple(other_listed)
        self.n = 0
        self.metrics: dict[str, PairedSums] = {}
        self.reasons: dict[str, PairedSums] = {}
        """Per end reason: its indicator's sums (``n`` counts only games where either arm ended so)."""
        self.cards = CardPairs() if self.base_listed == self.other_listed else None

    def _metric(self, name: str, scale: int, x: int, y: int) -> None:
        m = self.metrics.get(name)
        if m is None:
            m = self.metrics[name] = PairedSums(scale)
        m.add(x, y)

    def add(self, a: Half, b: Half) -> None:
        """Fold in game ``i`` of the baseline (``a``) and of the other setting (``b``)."""
        self.n += 1
        self._metric("turns", 1, a[0], b[0])
        self._metric("decisions", 1, a[1], b[1])
        if a[2] is not None and b[2] is not None:
            self._metric("forced", 1, int(a[2]), int(b[2]))
        wa, wb = a[4], b[4]
        if a[3] is not None and b[3] is not None:
            self._metric("first", WIN_UNITS, wa[a[3]], wb[b[3]])
            # The first player's share minus the game's fair share, in 1/WIN_UNITS² (exact: P | WIN_UNITS).
            self._metric("first-advantage", SHARE2, _advantage(wa, a[3]), _advantage(wb, b[3]))
        la, lb = len(self.base_listed), len(self.other_listed)
        if la > 1 or lb > 1:
            m = math.lcm(la, lb)
            for j in range(m):
                self._metric(f"win:{j}", SHARE2, _listed(wa, a[5], j, m), _listed(wb, b[5], j, m))
        if len(wa) == len(wb) and len(wa) > 1:
            for seat in range(len(wa)):
                self._metric(f"seat:{seat}", WIN_UNITS, wa[seat], wb[seat])
        ra, rb = a[7], b[7]
        if ra == rb:
            self._reason(ra, 1, 1)
        else:
            self._reason(ra, 1, 0)
            self._reason(rb, 0, 1)
        if self.cards is not None:
            self.cards.add(a, b)

    def _reason(self, reason: str, x: int, y: int) -> None:
        r = self.reasons.get(reason)
        if r is None:
            r = self.reasons[reason] = PairedSums(1)
        r.add(x, y)

    def merge(self, other: PairAggregate) -> None:
        self.n += other.n
        for mine, theirs in ((self.metrics, other.metrics), (self.reasons, other.reasons)):
            for name, sums in theirs.items():
                acc = mine.get(name)
                if acc is None:
                    acc = mine[name] = PairedSums(sums.scale)
                acc.merge(sums)
        if self.cards is not None and other.cards is not None:
            self.cards.merge(other.cards)


def _advantage(wins: Sequence[int], first: int) -> int:
    players = len(wins)
    return (players * wins[first] - sum(wins)) * (WIN_UNITS // players)


def _listed(wins: Sequence[int], agents: Sequence[int], j: int, m: int) -> int:
    mine = [w for w, a in zip(wins, agents, strict=True) if a % m == j]
    return sum(mine) * (WIN_UNITS // len(mine))


class RunAggregate:
    """The aggregate of a run: one :class:`SettingAggregate` per setting and one
    :class:`PairAggregate` per comparison; ``add`` lines, ``merge`` other aggregates.

    ``settings`` is the manifest's list of settings: each names its agents (``seats``) and, from
    results format 3, the setting it is compared with (``base``: None for none); older manifests
    compare every setting with the first.
    """

    def __init__(self, settings: Sequence[Mapping[str, Any]]) -> None:
        self.settings = [SettingAggregate() for _ in settings]
        self.comparisons: list[tuple[int, int]] = []
        for k, s in enumerate(settings):
            base = s.get("base", 0 if k else None)
            if base is not None and 0 <= int(base) < len(settings) and int(base) != k:
                self.comparisons.append((int(base), k))
        self.pairs = {(b, k): PairAggregate(settings[b]["seats"], settings[k]["seats"]) for b, k in self.comparisons}
        self.partners: dict[int, list[int]] = {k: [] for k in range(len(settings))}
        for b, k in self.comparisons:
            self.partners[b].append(k)
            self.partners[k].append(b)
        self.pending: dict[int, dict[int, tuple[Half, set[int]]]] = {}
        """Per game index, the games still waiting for a partner: their half and whom they wait for."""
        self.lines = 0

    def add(self, line: Mapping[str, Any]) -> None:
        """Fold in one results line."""
        s = int(line["setting"])
        wins = [win_units(float(w)) for w in line["wins"]]
        self.settings[s].add(line, wins)
        self.lines += 1
        if self.partners[s]:
            self._offer(int(line["index"]), s, half(line, wins), set(self.partners[s]))

    def add_all(self, lines: Iterable[Mapping[str, Any]]) -> RunAggregate:
        for line in lines:
            self.add(line)
        return self

    def _offer(self, index: int, s: int, h: Half, waiting: set[int]) -> None:
        """Pair game ``index`` of setting ``s`` with every waiting partner already here; keep it while
        it still waits for others."""
        group = self.pending.setdefault(index, {})
        for p in sorted(waiting):
            other = group.get(p)
            if other is None or s not in other[1]:
                continue
            if (p, s) in self.pairs:
                self.pairs[(p, s)].add(other[0], h)
            else:
                self.pairs[(s, p)].add(h, other[0])
            other[1].discard(s)
            waiting.discard(p)
            if not other[1]:
                del group[p]
        if waiting:
            group[s] = (h, waiting)
        if not group:
            del self.pending[index]

    def merge(self, other: RunAggregate) -> None:
        for mine, theirs in zip(self.settings, other.settings, strict=True):
            mine.merge(theirs)
        for key, pair in other.pairs.items():
            self.pairs[key].merge(pair)
        self.lines += other.lines
        for index, group in sorted(other.pending.items()):
            for s, (h, waiting) in sorted(group.items()):
                self._offer(index, s, h, set(waiting))
