/* Applying a whole action in C: the card moves, the turn's flags and the hand's end, every rule question through
 * the core's memos (``apply.py`` is the Python path it mirrors, mechanism by mechanism, and the one it falls back
 * on). Included by ``_core.c`` after the listing, whose helpers (``ask_built``, ``predicate_holds``,
 * ``table_values_of``, ``cards_held``, ``meld_add``, ``push_pile``, ``pop_pile``, ``take_card``, ``give_card``,
 * ``lay_out``, ``add_penalty``, ``penalty_fits``, ``new_meld``, ``open_meld_index``, ``merge_index``) it uses.
 *
 * An action comes encoded as a flat tuple of small ints (``apply.py``'s ``encode``): its kind, the meld a take's
 * top card joins, its cards, then its groups (each: the rank its label names or -1, the meld it names, its cards).
 * Nothing is moved before the action is known to be one the position can make; where it is not (cards not held, a
 * meld named that is not there, an asker with no partner) the entry hands back DECLINED with the position
 * untouched, and ``NativeApply`` takes the Python path, which applies it or refuses it in words; where it would
 * pass a bound of the core's counts that is known before the first move, it raises with the position untouched.
 * What varies between variants is bound once in an apply context (``bind_apply``): the memos of its questions, the
 * codes of their words, and the parameters its spec compiles to; never a variant's name. */

#define APPLY_CONTEXT "canasta_ref.core._core.ApplyContext"
#define MAX_ENCODED 512 /* the ints of one encoded action */

/* The kinds of action the C entry applies, as ``apply.py`` codes them (``NATIVE_KINDS``). */
enum { DO_DRAW, DO_DISCARD, DO_MELD, DO_TAKE, DO_ASK, DO_YES, DO_NO, DO_PASS, DO_END, DO_COMBINE, DO_KINDS };
/* What the entry hands back: DECLINED (nothing moved), or the hand's end: none, the stock exhausted, the last
 * stock card a bonus card, or WENT_OUT + the seat that went out. */
enum { DECLINED = -1, ENDED_NOT, ENDED_STOCK, ENDED_LAST_BONUS, ENDED_WENT_OUT };
/* The questions an apply asks, by place in ``bind_apply``'s memos: bonus_card.replace, stock.last_card_bonus_ends,
 * stock.ends_with_discard, pile.frozen, pile.take_top_only, meld.take_apart, meld.closed, penalty.turn_end,
 * go_out.answerer, sides.lone_hand (each None where the spec has no clause that would make it asked). */
enum { Q_REPLACE, Q_LAST_ENDS, Q_ENDS_WITH_DISCARD, Q_FROZEN, Q_TOP_ONLY, Q_APART, Q_CLOSED, Q_PENALTY, Q_ANSWERER,
       Q_LONE_HAND, APPLY_MEMOS };
/* The triggers of hook sides.lone_hand, by place in ``bind_apply``'s trigger codes. */
enum { TRIGGER_TAKE, TRIGGER_GOING_OUT, TRIGGERS };
#define PHASE_DRAW 0 /* core.PHASES: draw, play, answer, keep, over */
#define PHASE_PLAY 1
#define PHASE_ANSWER 2
#define PHASE_OVER 4
#define JOKER_MELD_RANK 13 /* cards.JOKER_RANK: the wild-meld rank */

typedef struct {
    PyObject *bound; /* the memos, kept alive */
    RuleMemo *memo[APPLY_MEMOS];
    int draw_count, sequences;
    long merging; /* the meld ranks that merge (hook meld.merge_same_rank), as bits */
    int permission_codes[PERMISSIONS]; /* penalty.turn_end's codes of none, yes, no */
    int trigger_codes[TRIGGERS];       /* sides.lone_hand's codes of take, going_out */
    uint8_t initial_sides[MAX_SEATS];  /* each seat's side at the deal: whether sides have formed since */
} ApplyContext;

/* One action as the C entry reads it. */
typedef struct {
    int kind, target, n_cards, n_groups;
    const long *cards;
    int label[MAX_MELDS], group_target[MAX_MELDS], group_size[MAX_MELDS];
    const long *group_cards[MAX_MELDS];
} Encoded;

static void apply_context_free(PyObject *capsule) {
    ApplyContext *c = PyCapsule_GetPointer(capsule, APPLY_CONTEXT);
    if (c == NULL) return;
    Py_XDECREF(c->bound);
    PyMem_Free(c);
}

/* Position.bind_apply(memos, draw_count, sequences, merging, permission_codes, trigger_codes, initial_sides): what
 * one variant applies with, bound once (``apply.py``'s ``ApplyContext``), as an opaque capsule the entry takes. */
static PyObject *Position_bind_apply(PyObject *Py_UNUSED(cls), PyObject *args) {
    static const char *names[APPLY_MEMOS] = {
        "bonus_card.replace's memo", "stock.last_card_bonus_ends's memo", "stock.ends_with_discard's memo",
        "pile.frozen's memo", "pile.take_top_only's memo", "meld.take_apart's memo", "meld.closed's memo",
        "penalty.turn_end's memo", "go_out.answerer's memo", "sides.lone_hand's memo"};
    PyObject *memos, *codes, *triggers, *sides;
    int draw_count, sequences;
    long merging, permission_codes[PERMISSIONS], trigger_codes[TRIGGERS];
    long initial_sides[MAX_SEATS] = {0}; /* one a player is given: the seats past them copied as zero, not garbage */
    if (!PyArg_ParseTuple(args, "O!iplOOO", &PyTuple_Type, &memos, &draw_count, &sequences, &merging, &codes,
                          &triggers, &sides))
        return NULL;
    if (PyTuple_GET_SIZE(memos) != APPLY_MEMOS)
        return PyErr_Format(PyExc_ValueError, "native core: %zd apply memos, expected %d", PyTuple_GET_SIZE(memos),
                            APPLY_MEMOS);
    if (draw_count < 0 || draw_count > MAX_CARDS)
        return PyErr_Format(PyExc_ValueError, "native core: draw_count is %d, expected 0 to %d", draw_count, MAX_CARDS);
    if (read_codes(codes, PERMISSIONS, "permission codes", permission_codes) < 0 ||
        read_codes(triggers, TRIGGERS, "trigger codes", trigger_codes) < 0 ||
        read_ints(sides, 0, MAX_SIDES - 1, MAX_SEATS, "the initial sides", initial_sides) < 0)
        return NULL;
    ApplyContext *c = PyMem_Calloc(1, sizeof(ApplyContext));
    if (c == NULL) return PyErr_NoMemory();
    for (int i = 0; i < APPLY_MEMOS; i++) {
        PyObject *memo = PyTuple_GET_ITEM(memos, i);
        if (memo != Py_None && check_recipe(memo, names[i]) < 0) {
            PyMem_Free(c);
            return NULL;
        }
        c->memo[i] = memo == Py_None ? NULL : (RuleMemo *)memo;
    }
    c->bound = Py_NewRef(memos);
    c->draw_count = draw_count, c->sequences = sequences, c->merging = merging;
    for (int i = 0; i < PERMISSIONS; i++) c->permission_codes[i] = (int)permission_codes[i];
    for (int i = 0; i < TRIGGERS; i++) c->trigger_codes[i] = (int)trigger_codes[i];
    for (int i = 0; i < MAX_SEATS; i++) c->initial_sides[i] = (uint8_t)initial_sides[i];
    PyObject *capsule = PyCapsule_New(c, APPLY_CONTEXT, apply_context_free);
    if (capsule == NULL) {
        Py_DECREF(c->bound);
        PyMem_Free(c);
    }
    return capsule;
}

/* -- reading the encoded action ------------------------------------------------------------------------------ */

/* ``count`` cards from ``values`` at ``*at`` (each a card type): 0, or -1 with an exception naming the fault. */
static int read_encoded_cards(const long *values, Py_ssize_t n, Py_ssize_t *at, long count, const long **out) {
    if (count < 0 || *at + count > n) {
        PyErr_SetString(PyExc_ValueError, "native core: an encoded action's cards run past its end");
        return -1;
    }
    for (long i = 0; i < count; i++)
        if (values[*at + i] < 0 || values[*at + i] >= CARD_TYPES)
            return PyErr_Format(PyExc_ValueError, "native core: there is no card %ld", values[*at + i]), -1;
    *out = values + *at;
    *at += count;
    return 0;
}

/* Whether an encoded meld ``target`` fits an int unchanged (0: none, else the meld's place from 1; one past the
 * side's melds is declined later, with nothing moved): 0, or -1 with an exception. */
static int check_target(long target) {
    if (target >= -MAX_CARDS && target <= MAX_CARDS) return 0;
    PyErr_Format(PyExc_ValueError, "native core: an encoded action names meld %ld", target);
    return -1;
}

/* The flat ints (kind, target, n, cards..., groups, [label, target, n, cards...]...) into ``e``. */
static int read_encoded(const long *v, Py_ssize_t n, Encoded *e) {
    if (n < 4) return PyErr_SetString(PyExc_ValueError, "native core: an encoded action is too short"), -1;
    if (v[0] < 0 || v[0] >= DO_KINDS) return PyErr_Format(PyExc_ValueError, "native core: no action kind %ld", v[0]), -1;
    if (check_target(v[1]) < 0) return -1;
    e->kind = (int)v[0], e->target = (int)v[1];
    Py_ssize_t at = 3;
    if (read_encoded_cards(v, n, &at, v[2], &e->cards) < 0) return -1;
    e->n_cards = (int)v[2];
    if (at >= n || v[at] < 0 || v[at] > MAX_MELDS)
        return PyErr_SetString(PyExc_ValueError, "native core: an encoded action's groups are not counted"), -1;
    e->n_groups = (int)v[at++];
    for (int g = 0; g < e->n_groups; g++) {
        if (at + 3 > n) return PyErr_SetString(PyExc_ValueError, "native core: an encoded group is cut short"), -1;
        if (v[at] < -1 || v[at] >= MELD_RANKS)
            return PyErr_Format(PyExc_ValueError, "native core: a group's label names no meld rank (%ld)", v[at]), -1;
        if (check_target(v[at + 1]) < 0) return -1;
        long size = v[at + 2]; /* checked whole, before it is cut to an int: 2**32 + 1 is not one card */
        e->label[g] = (int)v[at], e->group_target[g] = (int)v[at + 1];
        at += 3;
        if (read_encoded_cards(v, n, &at, size, &e->group_cards[g]) < 0) return -1;
        e->group_size[g] = (int)size;
    }
    if (at != n) return PyErr_SetString(PyExc_ValueError, "native core: an encoded action has ints left over"), -1;
    return 0;
}

/* -- what an action reads -------------------------------------------------------------------------------------- */

/* The rank of the meld a group makes or joins (``checks.group_rank``): its natural cards', a sequence's where the
 * spec has them and they are of several ranks, its label's, or the wild-meld rank. */
static int group_rank_of(const Position *self, const ApplyContext *c, const long *cards, int n, int label) {
    int found = -1;
    for (int i = 0; i < n; i++) {
        if (self->facts.is_wild[cards[i]]) continue;
        int rank = self->facts.rank[cards[i]];
        if (found < 0) {
            found = rank;
            if (!c->sequences) return found;
        } else if (rank != found) {
            return MELD_RANKS - 1;
        }
    }
    return found >= 0 ? found : label >= 0 ? label : JOKER_MELD_RANK;
}

/* The values a question is asked with: ``arguments`` (its query's values in order; the recipe picks those its
 * clauses read), the table's and a card's zero, never stack garbage, should a recipe name them. */
static KeyValues asked_with(const int32_t *arguments, int n) {
    KeyValues v = {0};
    memcpy(v.arguments, arguments, (size_t)n * sizeof(int32_t));
    return v;
}

static PyObject *ask_with(RuleMemo *memo, const int32_t *arguments, int n) {
    KeyValues v = asked_with(arguments, n);
    return ask_built(memo, &v);
}

/* A predicate asked with ``arguments``: 1, 0 (also where the spec has no clause for it), or -1 with an exception. */
static int holds(RuleMemo *memo, const int32_t *arguments, int n) {
    KeyValues v = asked_with(arguments, n);
    return predicate_holds(memo, &v);
}

/* -- what the position can hold ---------------------------------------------------------------------------------- */

/* Every narrow count a move raises is checked against its bound, never wrapped: a hand's copies of a card (bytes,
 * MAX_COPIES), a seat's bonus cards laid out (MAX_BONUS), a side's penalties (MAX_PENALTY), a meld's copies and
 * size (``meld_add``), the pile and the side's melds (``action_fits``). Where the count is known before anything
 * moves, it is checked then; the rest (what rule answers decide midway: bonus cards' replacements, a penalty) at
 * the move itself. */

_Static_assert(MAX_FOOT <= MAX_COPIES, "a foot is picked up into an empty hand: it must fit");

static int too_many_copies(int seat, int card) {
    PyErr_Format(PyExc_ValueError, "native core: seat %d would hold more than %d copies of card %d", seat, MAX_COPIES,
                 card);
    return -1;
}

static int too_many_bonus_cards(int seat) {
    PyErr_Format(PyExc_ValueError, "native core: seat %d would lay out more than %d bonus cards", seat, MAX_BONUS);
    return -1;
}

/* One card into a hand, its copies kept within MAX_COPIES: 0, or -1 with an exception (the card not moved). */
static int gain_card(State *s, int seat, int card) {
    if (s->hands[seat][card] >= MAX_COPIES) return too_many_copies(seat, card);
    take_card(s, seat, card);
    return 0;
}

/* Whether ``seat`` can take ``gains`` into its hand (counted by card type) and lay out ``bonus`` more bonus cards:
 * 0, or -1 with an exception naming the bound. */
static int hand_takes(const State *s, int seat, const int gains[CARD_TYPES], int bonus) {
    for (int card = 0; card < CARD_TYPES; card++)
        if (s->hands[seat][card] + gains[card] > MAX_COPIES) return too_many_copies(seat, card);
    return s->bonus_len[seat] + bonus > MAX_BONUS ? too_many_bonus_cards(seat) : 0;
}

/* The bonus cards ``count`` cards from ``cards`` hold. */
static int bonus_among(const Position *self, const uint8_t *cards, int count) {
    int bonus = 0;
    for (int i = 0; i < count; i++) bonus += self->facts.is_bonus[cards[i]];
    return bonus;
}

/* Whether a draw of hook draw.count cards fits ``seat``: the cards it surely brings (the stock's top ones) in its
 * hand, and its bonus cards, those held and those drawn, laid out. The replacements drawn for them, as many as rule
 * answers say, are checked as they are drawn. */
static int draw_fits(const Position *self, const ApplyContext *c, int seat) {
    const State *s = &self->state;
    int drawn = c->draw_count < s->stock_len ? c->draw_count : s->stock_len, gains[CARD_TYPES] = {0};
    const uint8_t *top = s->stock + s->stock_len - drawn;
    for (int i = 0; i < drawn; i++) gains[top[i]]++;
    int bonus = bonus_among(self, top, drawn);
    for (int card = 0; card < CARD_TYPES; card++) bonus += self->facts.is_bonus[card] * s->hands[seat][card];
    return hand_takes(s, seat, gains, bonus);
}

/* Whether the foot ``seat`` picks up, its hand left with ``hand_after`` cards, fits: its bonus cards laid out (its
 * cards fit the empty hand: MAX_FOOT is at most MAX_COPIES). 0, or -1 with an exception. */
static int foot_fits(const Position *self, int seat, int hand_after) {
    const State *s = &self->state;
    if (!s->has_feet || hand_after || !s->feet_len[seat]) return 0;
    int bonus = bonus_among(self, s->feet[seat], s->feet_len[seat]);
    return s->bonus_len[seat] + bonus > MAX_BONUS ? too_many_bonus_cards(seat) : 0;
}

/* Whether meld ``index`` of ``side`` (one already there; -1: a new one, made of cards from one hand, which fit)
 * can take ``n`` more cards counted by type in ``added``: 0, or -1 with an exception. */
static int meld_takes(const Position *self, int side, int index, const int added[CARD_TYPES], int n) {
    if (index < 0) return 0;
    const NativeMeld *m = &self->state.melds[side][index];
    int fits = m->size + n <= MAX_CARDS;
    for (int card = 0; card < CARD_TYPES && fits; card++) fits = m->counts[card] + added[card] <= MAX_COPIES;
    if (fits) return 0;
    PyErr_Format(PyExc_ValueError, "native core: side %d's meld %d would hold more cards than the core keeps", side,
                 index + 1);
    return -1;
}

/* -- the moves, each on a position known to allow it ---------------------------------------------------------- */

/* Up to ``count`` cards from the stock's top into a hand: 0, or -1 with an exception where a card would pass its
 * copies' bound (the cards before it drawn). */
static int draw_cards(State *s, int seat, int count) {
    for (int i = 0; i < count && s->stock_len > 0; i++) {
        if (gain_card(s, seat, s->stock[s->stock_len - 1]) < 0) return -1;
        s->stock_len--;
    }
    return 0;
}

static int end_hand(State *s, int ended) {
    s->turn.phase = PHASE_OVER;
    return ended;
}

/* The next seat's draw phase, the turn's flags cleared (``Game._next_turn``). */
static void next_turn(Position *self) {
    State *s = &self->state;
    s->to_act = (s->to_act + 1) % self->players;
    s->turn.phase = PHASE_DRAW, s->turn.permission = 0, s->turn.melded = s->turn.asked = s->turn.took = 0;
}

/* Draw ``count`` replacements where hook bonus_card.replace says so: 1, or 0 where the stock ran out and hook
 * stock.last_card_bonus_ends ends play (else the player has no discard: the turn's flag), -1 on an error. */
static int replace_bonus(Position *self, const ApplyContext *c, int seat, int count) {
    State *s = &self->state;
    int32_t asked[2] = {0, s->stock_len};
    int replaces = holds(c->memo[Q_REPLACE], asked, 2);
    if (replaces <= 0) return replaces < 0 ? -1 : 1;
    for (int i = 0; i < count; i++) {
        if (!s->stock_len) {
            int32_t empty[1] = {0};
            int ends = holds(c->memo[Q_LAST_ENDS], empty, 1);
            if (ends) return ends < 0 ? -1 : 0;
            s->turn.last_card_bonus = 1;
            return 1;
        }
        if (draw_cards(s, seat, 1) < 0) return -1;
    }
    return 1;
}

/* Every bonus card in the hand laid out, in card order, and replaced, until none is left
 * (``Game._lay_out_bonus_cards``): the hand's end, or -2 on an error. */
static int lay_out_bonus_cards(Position *self, const ApplyContext *c, int seat) {
    State *s = &self->state;
    for (;;) {
        int found[CARD_TYPES], counts[CARD_TYPES], n = 0;
        for (int card = 0; card < CARD_TYPES; card++)
            if (self->facts.is_bonus[card] && s->hands[seat][card]) found[n] = card, counts[n++] = s->hands[seat][card];
        if (!n) return ENDED_NOT;
        for (int i = 0; i < n; i++) {
            if (s->bonus_len[seat] + counts[i] > MAX_BONUS) return too_many_bonus_cards(seat), -2;
            lay_out(s, seat, found[i], counts[i]);
            int replaced = replace_bonus(self, c, seat, counts[i]);
            if (replaced < 0) return -2;
            if (!replaced) return end_hand(s, ENDED_LAST_BONUS);
        }
    }
}

/* A seat that has played out its hand picks up its foot, its bonus cards laid out (``Game._pick_up_foot``; the
 * foot fits the empty hand, and its bonus cards were checked by ``foot_fits``). */
static int pick_up_foot(Position *self, const ApplyContext *c, int seat) {
    State *s = &self->state;
    if (!s->has_feet || s->hand_sizes[seat] || !s->feet_len[seat]) return ENDED_NOT;
    for (int i = 0; i < s->feet_len[seat]; i++) take_card(s, seat, s->feet[seat][i]);
    s->feet_len[seat] = 0;
    return lay_out_bonus_cards(self, c, seat);
}

/* Where hook sides.lone_hand says so on ``trigger``, ``seat`` plays alone and the others join one side, their melds
 * pooled (``sides.maybe_form_lone_hand``, made by ``Position_form_lone_hand``): 0, or -1 on an error. */
static int maybe_form_lone_hand(Position *self, const ApplyContext *c, int seat, int trigger) {
    if (c->memo[Q_LONE_HAND] == NULL) return 0;
    int formed = 0;
    for (int other = 0; other < self->players; other++) formed |= self->state.side_of[other] != c->initial_sides[other];
    int32_t asked[2] = {c->trigger_codes[trigger], formed};
    int lone = holds(c->memo[Q_LONE_HAND], asked, 2);
    if (lone <= 0) return lone;
    PyObject *args = Py_BuildValue("(il)", seat, c->merging);
    PyObject *done = args == NULL ? NULL : Position_form_lone_hand(self, args);
    Py_XDECREF(args);
    if (done == NULL) return -1;
    Py_DECREF(done);
    return 0;
}

/* The player goes out (where sides form in play, perhaps as the lone hand), and the hand ends. */
static int go_out(Position *self, const ApplyContext *c, int seat) {
    if (maybe_form_lone_hand(self, c, seat, TRIGGER_GOING_OUT) < 0) return -2;
    return end_hand(&self->state, ENDED_WENT_OUT + seat);
}

/* After a meld or a take: going out with nothing left to play, else the foot picked up where the hand is empty. */
static int after_hand_shrinks(Position *self, const ApplyContext *c, int seat) {
    if (!cards_held(self, seat)) return go_out(self, c, seat);
    return pick_up_foot(self, c, seat);
}

/* Close a side's meld where hook meld.closed says so (``checks.settled``): 0, or -1 on an error. */
static int settle(Position *self, const ApplyContext *c, int side, int index) {
    NativeMeld *m = &self->state.melds[side][index];
    int32_t asked[4] = {m->rank, m->size, m->naturals, m->wilds};
    int closes = holds(c->memo[Q_CLOSED], asked, 4);
    if (closes > 0) m->closed = 1;
    return closes < 0 ? -1 : 0;
}

/* Cards from a hand laid on a side's meld (-1: a new one of ``rank``), which then closes where the spec says so. */
static int lay_cards(Position *self, const ApplyContext *c, int seat, int index, int rank, const long *cards, int n) {
    State *s = &self->state;
    int side = s->side_of[seat];
    if (index < 0) index = new_meld(s, side, rank);
    for (int i = 0; i < n; i++) {
        if (meld_add(&self->facts, &s->melds[side][index], (int)cards[i], 1) < 0) return -1;
        give_card(s, seat, (int)cards[i], 1);
    }
    s->team_opened[side] = 1;
    return settle(self, c, side, index);
}

/* The meld a group joins: the one it names, else the side's open meld of its rank where the rank merges, else -1. */
static int group_meld(const Position *self, const ApplyContext *c, int seat, int target, int rank) {
    return target ? target - 1 : merge_index(self, self->state.side_of[seat], rank, c->merging);
}

static int lay_groups(Position *self, const ApplyContext *c, int seat, const Encoded *e) {
    for (int g = 0; g < e->n_groups; g++) {
        int rank = group_rank_of(self, c, e->group_cards[g], e->group_size[g], e->label[g]);
        int index = group_meld(self, c, seat, e->group_target[g], rank);
        if (lay_cards(self, c, seat, index, rank, e->group_cards[g], e->group_size[g]) < 0) return -1;
    }
    return 0;
}

/* -- what the position must allow before anything moves ------------------------------------------------------- */

/* Whether ``seat``'s hand, with ``extra`` cards it would gain first, holds the action's cards (and a take's top
 * card, ``top`` >= 0), and every meld the action names exists with room for the new ones. */
static int action_fits(const Position *self, int seat, const Encoded *e, const int extra[CARD_TYPES], int top) {
    const State *s = &self->state;
    int wanted[CARD_TYPES] = {0}, count = s->meld_count[s->side_of[seat]];
    if (top >= 0) wanted[top]++;
    for (int i = 0; i < e->n_cards; i++) wanted[e->cards[i]]++;
    for (int g = 0; g < e->n_groups; g++)
        for (int i = 0; i < e->group_size[g]; i++) wanted[e->group_cards[g][i]]++;
    for (int card = 0; card < CARD_TYPES; card++)
        if (wanted[card] > s->hands[seat][card] + extra[card]) return 0;
    if (e->target < 0 || e->target > count || count + e->n_groups + 1 > MAX_MELDS) return 0;
    for (int g = 0; g < e->n_groups; g++)
        if (e->group_target[g] < 0 || e->group_target[g] > count) return 0;
    return 1;
}

/* The cards an action lays or discards from hand. */
static int cards_laid(const Encoded *e) {
    int n = e->n_cards;
    for (int g = 0; g < e->n_groups; g++) n += e->group_size[g];
    return n;
}

/* Whether every meld already there that the action joins can take its cards, the groups joining one meld counted
 * together: the meld a take's top group joins (``top_index``, with the ``top_n`` cards ``top``; none where 0), then
 * each group's. 0, or -1 with an exception. */
static int melds_fit(const Position *self, const ApplyContext *c, int seat, const Encoded *e, int top_index,
                     const long *top, int top_n) {
    int joins[MAX_MELDS + 1], sizes[MAX_MELDS + 1], n = 0;
    const long *cards[MAX_MELDS + 1];
    if (top_n) joins[n] = top_index, sizes[n] = top_n, cards[n++] = top;
    for (int g = 0; g < e->n_groups; g++) {
        int rank = group_rank_of(self, c, e->group_cards[g], e->group_size[g], e->label[g]);
        joins[n] = group_meld(self, c, seat, e->group_target[g], rank);
        sizes[n] = e->group_size[g], cards[n++] = e->group_cards[g];
    }
    for (int i = 0; i < n; i++) {
        int counted = joins[i] < 0;
        for (int j = 0; j < i && !counted; j++) counted = joins[j] == joins[i];
        if (counted) continue;
        int added[CARD_TYPES] = {0}, total = 0;
        for (int j = i; j < n; j++) {
            if (joins[j] != joins[i]) continue;
            for (int k = 0; k < sizes[j]; k++) added[cards[j][k]]++;
            total += sizes[j];
        }
        if (meld_takes(self, self->state.side_of[seat], joins[i], added, total) < 0) return -1;
    }
    return 0;
}

/* -- the actions ------------------------------------------------------------------------------------------------ */

/* Hook draw.count cards from the stock (play ends where it is empty), then their bonus cards laid out. */
static int apply_draw(Position *self, const ApplyContext *c, int seat) {
    State *s = &self->state;
    if (!s->stock_len) return end_hand(s, ENDED_STOCK);
    if (draw_fits(self, c, seat) < 0 || draw_cards(s, seat, c->draw_count) < 0) return -2;
    s->turn.phase = PHASE_PLAY;
    return lay_out_bonus_cards(self, c, seat);
}

/* What hook penalty.turn_end charges the side for this turn's end, read from the turn's flags; the answer and the
 * side's sum kept within MAX_PENALTY (the answer is known only after the discard: checked here, not before). */
static int penalise_turn_end(Position *self, const ApplyContext *c, int seat) {
    if (c->memo[Q_PENALTY] == NULL) return 0;
    State *s = &self->state;
    int32_t asked[3] = {s->turn.asked, c->permission_codes[s->turn.permission], s->turn.took};
    PyObject *answer = ask_with(c->memo[Q_PENALTY], asked, 3);
    long points = answer == NULL ? -1 : PyLong_AsLong(answer);
    if (points == -1 && PyErr_Occurred()) return -1;
    if (!points) return 0;
    int side = s->side_of[seat];
    if (penalty_fits(s, side, points, "hook penalty.turn_end's charge") < 0) return -1;
    add_penalty(s, side, (int32_t)points);
    return 0;
}

/* The card onto the pile; going out with an empty hand, else the foot, the turn-end penalty, play ending on a
 * discard at an empty stock where the spec says so, else the next seat's turn and its first turn's bonus cards. */
static int apply_discard(Position *self, const ApplyContext *c, int seat, int card) {
    State *s = &self->state;
    give_card(s, seat, card, 1);
    push_pile(self, card);
    if (!cards_held(self, seat)) return go_out(self, c, seat);
    int ended = pick_up_foot(self, c, seat);
    if (ended != ENDED_NOT) return ended;
    if (penalise_turn_end(self, c, seat) < 0) return -2;
    if (!s->stock_len) {
        int32_t empty[1] = {0};
        int ends = holds(c->memo[Q_ENDS_WITH_DISCARD], empty, 1);
        if (ends) return ends < 0 ? -2 : end_hand(s, ENDED_STOCK);
    }
    next_turn(self);
    int next = s->to_act;
    if (!(s->turn.awaiting_first_turn >> next & 1u)) return ENDED_NOT;
    s->turn.awaiting_first_turn &= ~(1u << next);
    return lay_out_bonus_cards(self, c, next);
}

/* Whether hook pile.take_top_only moves the top card alone (``checks.takes_top_only``). */
static int takes_top_only(const Position *self, const ApplyContext *c, int seat, int top) {
    if (c->memo[Q_TOP_ONLY] == NULL) return 0;
    const State *s = &self->state;
    int32_t asked[TABLE_WIDTH + 4];
    table_values_of(self, seat, asked);
    asked[TABLE_WIDTH] = s->pile_wilds > 0, asked[TABLE_WIDTH + 1] = s->pile_red_threes > 0;
    asked[TABLE_WIDTH + 2] = s->pile_black_threes > 0, asked[TABLE_WIDTH + 3] = s->turn.upcard_froze;
    int frozen = holds(c->memo[Q_FROZEN], asked, TABLE_WIDTH + 4);
    if (frozen < 0) return -1;
    asked[TABLE_WIDTH] = frozen;
    int rank = self->facts.rank[top];
    asked[TABLE_WIDTH + 1] = !self->facts.is_wild[top] && open_meld_index(self, s->side_of[seat], rank) >= 0;
    return holds(c->memo[Q_TOP_ONLY], asked, TABLE_WIDTH + 2);
}

/* The replacements a whole pile's bonus cards under its top bring, where hook bonus_card.replace says so. */
static int pile_replacements(const Position *self, const ApplyContext *c) {
    const State *s = &self->state;
    int bonus = 0;
    for (int i = 0; i < s->pile_len - 1; i++) bonus += self->facts.is_bonus[s->pile[i]];
    if (!bonus) return 0;
    int32_t asked[2] = {1, s->stock_len};
    int replaces = holds(c->memo[Q_REPLACE], asked, 2);
    if (replaces <= 0) return replaces;
    return bonus < s->stock_len ? bonus : s->stock_len;
}

/* The side's meld of the top card's rank a take joins, unless hook meld.take_apart keeps it apart (-1). */
static int meld_taken_onto(const Position *self, const ApplyContext *c, int seat, int rank, const Encoded *e, int top) {
    int index = merge_index(self, self->state.side_of[seat], rank, c->merging);
    if (index < 0 || c->memo[Q_APART] == NULL) return index;
    const NativeMeld *m = &self->state.melds[self->state.side_of[seat]][index];
    int added_wilds = self->facts.is_wild[top];
    for (int i = 0; i < e->n_cards; i++) added_wilds += self->facts.is_wild[e->cards[i]];
    int32_t asked[4] = {rank, m->size >= self->facts.canasta_size[rank], m->wilds, added_wilds};
    int apart = holds(c->memo[Q_APART], asked, 4);
    return apart < 0 ? -2 : apart ? -1 : index;
}

/* The cards a take brings into the hand before it melds: the top alone, or the pile's non-bonus cards and the
 * replacements drawn for its bonus cards. */
static void take_gains(const Position *self, int top_only, int replaced, int gains[CARD_TYPES]) {
    const State *s = &self->state;
    memset(gains, 0, CARD_TYPES * sizeof(int));
    if (top_only) {
        gains[s->pile[s->pile_len - 1]]++;
        return;
    }
    for (int i = 0; i < s->pile_len; i++)
        if (!self->facts.is_bonus[s->pile[i]]) gains[s->pile[i]]++;
    for (int i = 0; i < replaced; i++) gains[s->stock[s->stock_len - 1 - i]]++;
}

/* The pile into the hand (its bonus cards laid out, ``replaced`` drawn for them), or its top card alone: what it
 * brings checked first (``hand_takes``). */
static int pick_up_pile(Position *self, int seat, int top_only, int replaced) {
    State *s = &self->state;
    if (top_only) {
        take_card(s, seat, pop_pile(self));
        return 0;
    }
    for (int i = 0; i < s->pile_len; i++) {
        int card = s->pile[i];
        if (!self->facts.is_bonus[card]) {
            take_card(s, seat, card);
        } else if (s->bonus_len[seat] == MAX_BONUS) {
            return too_many_bonus_cards(seat);
        } else {
            s->bonus[seat][s->bonus_len[seat]++] = (uint8_t)card;
        }
    }
    s->pile_len = s->pile_wilds = s->pile_red_threes = s->pile_black_threes = 0;
    return draw_cards(s, seat, replaced);
}

/* Whether a take fits, before anything moves: the cards it brings in ``seat``'s hand, the pile's bonus cards laid
 * out, the melds it joins (the top group's at ``index``), and the foot picked up where the hand is emptied. */
static int take_fits(const Position *self, const ApplyContext *c, int seat, const Encoded *e,
                     const int gains[CARD_TYPES], int top_only, int index, const long *top_group) {
    const State *s = &self->state;
    int gained = 0;
    for (int card = 0; card < CARD_TYPES; card++) gained += gains[card];
    int bonus = top_only ? 0 : bonus_among(self, s->pile, s->pile_len);
    int hand_after = s->hand_sizes[seat] + gained - 1 - cards_laid(e); /* the top card laid too */
    if (hand_takes(s, seat, gains, bonus) < 0 || melds_fit(self, c, seat, e, index, top_group, e->n_cards + 1) < 0)
        return -1;
    return foot_fits(self, seat, hand_after);
}

/* The pile taken (whole or its top alone), the top card and the cards offered laid on their meld, any further
 * melds; the player has taken the pile and melded (``Game._apply_take``). DECLINED where the hand cannot. */
static int apply_take(Position *self, const ApplyContext *c, int seat, const Encoded *e) {
    State *s = &self->state;
    if (!s->pile_len) return DECLINED;
    int top = s->pile[s->pile_len - 1];
    int top_only = takes_top_only(self, c, seat, top);
    int replaced = top_only < 0 ? -1 : top_only ? 0 : pile_replacements(self, c);
    if (replaced < 0) return -2;
    int gains[CARD_TYPES];
    take_gains(self, top_only, replaced, gains);
    if (!action_fits(self, seat, e, gains, top)) return DECLINED;
    long top_group[MAX_CARDS];
    top_group[0] = top;
    for (int i = 0; i < e->n_cards; i++) top_group[i + 1] = e->cards[i];
    int rank = group_rank_of(self, c, top_group, e->n_cards + 1, -1);
    int index = e->target ? e->target - 1 : meld_taken_onto(self, c, seat, rank, e, top);
    if (index < -1 || take_fits(self, c, seat, e, gains, top_only, index, top_group) < 0 ||
        pick_up_pile(self, seat, top_only, replaced) < 0 ||
        lay_cards(self, c, seat, index, rank, top_group, e->n_cards + 1) < 0 || lay_groups(self, c, seat, e) < 0)
        return -2;
    s->turn.phase = PHASE_PLAY, s->turn.melded = 1, s->turn.took = 1;
    if (!top_only) s->turn.upcard_froze = 0;
    if (maybe_form_lone_hand(self, c, seat, TRIGGER_TAKE) < 0) return -2;
    return after_hand_shrinks(self, c, seat);
}

/* The seat that answers ``seat``'s question (``checks.answerer``): the one hook go_out.answerer names, else the next
 * seat on the same side; DECLINED where that is no partner (the Python path says so in words), -2 on an error. */
static int answerer_of(const Position *self, const ApplyContext *c, int seat) {
    const State *s = &self->state;
    if (c->memo[Q_ANSWERER] != NULL) {
        int32_t asked[1] = {seat};
        PyObject *answer = ask_with(c->memo[Q_ANSWERER], asked, 1);
        long named = answer == NULL ? -1 : PyLong_AsLong(answer);
        if (named == -1 && PyErr_Occurred()) return -2;
        int chosen = (int)(((named % self->players) + self->players) % self->players);
        return chosen == seat || s->side_of[chosen] != s->side_of[seat] ? DECLINED : chosen;
    }
    for (int step = 1; step < self->players; step++) {
        int other = (seat + step) % self->players;
        if (s->side_of[other] == s->side_of[seat]) return other;
    }
    return DECLINED;
}

/* The partner answers next; the player has asked this turn and this hand. */
static int apply_ask(Position *self, const ApplyContext *c, int seat) {
    State *s = &self->state;
    int answerer = answerer_of(self, c, seat);
    if (answerer < 0) return answerer;
    s->turn.asked = 1, s->turn.asked_in_hand |= 1u << seat, s->turn.asker = seat;
    s->turn.phase = PHASE_ANSWER;
    s->to_act = answerer;
    return ENDED_NOT;
}

/* Two of the side's melds made one in the first one's place (``Position_combine``), of the rank of the meld the
 * other joins: of two canastas the one with fewer wild cards, a canasta, else the first; closed where hook
 * meld.closed says so. The turn's flags stay. The choice is ``checks._combined_into``'s, written again here since
 * calling Python from the C entry would cost a crossing each combine (``apply.py``'s path calls the engine's own);
 * tests/core/test_core_combine.py proves the three agree on every branch. */
static int apply_combine(Position *self, const ApplyContext *c, int seat, const Encoded *e) {
    int side = self->state.side_of[seat], count = self->state.meld_count[side];
    if (e->n_groups != 2 || e->n_cards) return DECLINED;
    int first = e->group_target[0] - 1, second = e->group_target[1] - 1;
    if (first < 0 || second < 0 || first >= count || second >= count || first == second) return DECLINED;
    const NativeMeld *a = &self->state.melds[side][first], *b = &self->state.melds[side][second];
    int first_canasta = a->size >= self->facts.canasta_size[a->rank];
    int second_canasta = b->size >= self->facts.canasta_size[b->rank];
    int second_joined = second_canasta && (!first_canasta || b->wilds < a->wilds);
    PyObject *args = Py_BuildValue("(iiii)", side, first, second, second_joined ? b->rank : a->rank);
    PyObject *done = args == NULL ? NULL : Position_combine(self, args);
    Py_XDECREF(args);
    if (done == NULL) return -2;
    Py_DECREF(done);
    return settle(self, c, side, first) < 0 ? -2 : ENDED_NOT;
}

/* The partner's answer given, the asker plays on; DECLINED, nothing moved, out of the answer phase or where nobody
 * asked (the Python path says so in words), whatever the listing offered. */
static int apply_answer(Position *self, int permission) {
    State *s = &self->state;
    if (s->turn.phase != PHASE_ANSWER || s->turn.asker < 0) return DECLINED;
    s->turn.permission = (uint8_t)permission, s->turn.phase = PHASE_PLAY;
    s->to_act = s->turn.asker;
    return ENDED_NOT;
}

/* The groups laid, each on its meld, what they join checked first; the player has melded this turn. */
static int apply_meld(Position *self, const ApplyContext *c, int seat, const Encoded *e) {
    static const int none[CARD_TYPES] = {0};
    if (!action_fits(self, seat, e, none, -1)) return DECLINED;
    if (melds_fit(self, c, seat, e, -1, NULL, 0) < 0 ||
        foot_fits(self, seat, self->state.hand_sizes[seat] - cards_laid(e)) < 0 || lay_groups(self, c, seat, e) < 0)
        return -2;
    self->state.turn.melded = 1;
    return after_hand_shrinks(self, c, seat);
}

static int apply_encoded(Position *self, const ApplyContext *c, const Encoded *e) {
    State *s = &self->state;
    int seat = s->to_act;
    static const int none[CARD_TYPES] = {0};
    switch (e->kind) {
    case DO_DRAW:
        return apply_draw(self, c, seat);
    case DO_DISCARD:
        if (e->n_cards != 1 || !action_fits(self, seat, e, none, -1) || s->pile_len == MAX_CARDS) return DECLINED;
        if (foot_fits(self, seat, s->hand_sizes[seat] - 1) < 0) return -2;
        return apply_discard(self, c, seat, (int)e->cards[0]);
    case DO_MELD:
        return apply_meld(self, c, seat, e);
    case DO_TAKE:
        return apply_take(self, c, seat, e);
    case DO_ASK:
        return apply_ask(self, c, seat);
    case DO_COMBINE:
        return apply_combine(self, c, seat, e);
    case DO_YES:
    case DO_NO:
        return apply_answer(self, e->kind == DO_YES ? 1 : 2); /* core.PERMISSIONS: none, yes, no */
    case DO_PASS:
        next_turn(self);
        return ENDED_NOT;
    default:
        return end_hand(s, ENDED_LAST_BONUS);
    }
}

/* Position.apply(context, encoded): the action applied whole for the seat to act; the hand's end (ENDED_NOT,
 * ENDED_STOCK, ENDED_LAST_BONUS, or ENDED_WENT_OUT + the seat), or DECLINED with nothing moved. A count past the
 * core's bounds known before the first move raises with nothing moved. An exception after the first move (a rule
 * question whose clause raises when Python evaluates it on a memo miss, no memory, a bound passed by what rule
 * answers decide midway: replacements, a penalty, melds pooled) leaves the position part moved and is not undone
 * here: a snapshot each action would cost about what the apply does. A caller that must survive it takes
 * ``snapshot()`` first. */
static PyObject *Position_apply(Position *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyTuple_Check(args[1]))
        return PyErr_Format(PyExc_TypeError, "native core: apply(context, encoded) takes a context and a tuple");
    if (!PyCapsule_IsValid(args[0], APPLY_CONTEXT))
        return PyErr_Format(PyExc_TypeError, "native core: apply takes an ApplyContext from bind_apply first");
    const ApplyContext *c = PyCapsule_GetPointer(args[0], APPLY_CONTEXT);
    Py_ssize_t n = PyTuple_GET_SIZE(args[1]);
    if (n > MAX_ENCODED) return PyErr_Format(PyExc_ValueError, "native core: an encoded action of %zd ints", n);
    long values[MAX_ENCODED];
    for (Py_ssize_t i = 0; i < n; i++) {
        values[i] = PyLong_AsLong(PyTuple_GET_ITEM(args[1], i));
        if (values[i] == -1 && PyErr_Occurred()) return NULL;
    }
    Encoded e;
    if (read_encoded(values, n, &e) < 0) return NULL;
    int ended = apply_encoded(self, c, &e);
    return ended < DECLINED ? NULL : PyLong_FromLong(ended);
}
