/* The native core of canasta-ref: a hand's position as flat arrays, the card moves every action is made of, and
 * the facts a hand's score is computed from. See README.md in this directory for what it owns and how it is proved.
 *
 * Mechanisms, not rules: nothing here knows a variant. What a card is (wild, a red or black three, a bonus card,
 * its points melded and held) and each meld rank's canasta size come from the compiled spec (``Rules``) at
 * construction; a rule question is never answered here. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <string.h>
#include <time.h>

#define CARD_TYPES 53
#define MELD_RANKS 15  /* the 14 card ranks, then a sequence's */
#define JOKER 52
#define SUITS 4 /* natural (not wild) card types of one rank, at most: the length of the tables counting them */
#define MAX_SEATS 6
#define MAX_SIDES 6
#define MAX_MELDS 48    /* one side's melds */
#define MAX_CARDS 1024  /* the stock, the pile */
#define MAX_BONUS 64    /* one seat's bonus cards laid out */
#define MAX_FOOT 64     /* one seat's foot, face down */
#define MAX_COPIES 255  /* copies of one card in one hand or meld */
#define MAX_PENALTY 1000000 /* a side's penalty points, either way: loaded and summed */
#define TABLE_WIDTH 6   /* hooks.TABLE_VARIABLES */

/* One meld: its rank (MELD_RANKS), its cards counted by card type, and the counts the listing and score read. */
typedef struct {
    uint8_t rank;
    uint8_t closed;
    uint16_t size, naturals, wilds, jokers;
    uint8_t counts[CARD_TYPES];
} NativeMeld;

/* The turn's flags (``load_turn``): the phase and the partner's permission by their place in ``core.PHASES`` and
 * ``core.PERMISSIONS``, whether the player has melded, asked or taken the pile this turn, whether the last card
 * drawn was a bonus card, whether the upcard froze the pile (hook pile.frozen), the seats that asked "may I go out?"
 * this hand (bit s), and the bonus cards each seat is owed for its side's initial meld (hook bonus_draw.count). */
#define PHASES 5
#define PERMISSIONS 3
typedef struct {
    uint8_t phase, permission, melded, asked, took, last_card_bonus, upcard_froze, has_owed;
    uint32_t asked_in_hand;
    int32_t owed[MAX_SEATS];
    int32_t asker; /* the seat that asked "may I go out?", answered next; -1: none */
    uint32_t awaiting_first_turn; /* the seats whose dealt bonus cards wait for their first turn, as bits */
} Turn;

/* Everything the core owns of a position: plain data, so a snapshot is one memcpy. */
typedef struct {
    uint8_t hands[MAX_SEATS][CARD_TYPES];
    int32_t hand_sizes[MAX_SEATS];
    uint8_t side_of[MAX_SEATS];
    uint8_t bonus[MAX_SEATS][MAX_BONUS];
    int32_t bonus_len[MAX_SEATS];
    uint8_t feet[MAX_SEATS][MAX_FOOT];
    int32_t feet_len[MAX_SEATS];
    uint8_t has_feet;
    uint8_t has_penalties;
    int32_t penalties[MAX_SIDES];
    uint8_t team_opened[MAX_SIDES];
    int32_t meld_count[MAX_SIDES];
    NativeMeld melds[MAX_SIDES][MAX_MELDS];
    uint8_t stock[MAX_CARDS];
    uint8_t pile[MAX_CARDS];
    int32_t stock_len, pile_len;
    int32_t pile_wilds, pile_red_threes, pile_black_threes;
    int32_t to_act;
    Turn turn;
} State;

/* What the spec compiles to, per card type and per meld rank. */
typedef struct {
    uint8_t rank[CARD_TYPES];
    uint8_t is_wild[CARD_TYPES];
    uint8_t is_red_three[CARD_TYPES];
    uint8_t is_black_three[CARD_TYPES];
    uint8_t is_bonus[CARD_TYPES];
    int32_t melded_value[CARD_TYPES];
    int32_t held_value[2][CARD_TYPES]; /* [anyone went out] */
    int32_t canasta_size[MELD_RANKS];
} CardFacts;

typedef struct {
    PyObject_HEAD
    int players;
    int sides;
    CardFacts facts;
    State state;
    uint64_t random;                          /* random play's generator (native/play.c), not the position's */
    int32_t minimums[MAX_SEATS][MAX_SIDES];   /* each seat's initial meld minimum by its side, for a hand */
    int has_minimums;
} Position;

/* -- reading Python values, each bad one refused with a message naming it ------------------------------------- */

static int read_int(PyObject *item, long low, long high, const char *what, long *out) {
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "native core: %s must be an int", what);
        return -1;
    }
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "native core: %s is %ld, expected %ld to %ld", what, value, low, high);
        return -1;
    }
    *out = value;
    return 0;
}

/* A sequence of ints into ``out`` (each within low..high); returns its length, or -1 with an exception set. */
static Py_ssize_t read_ints(PyObject *seq, long low, long high, Py_ssize_t most, const char *what, long *out) {
    PyObject *fast = PySequence_Fast(seq, "native core: expected a sequence of ints");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        PyErr_Format(PyExc_ValueError, "native core: %s holds %zd values, at most %zd fit", what, n, most);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), low, high, what, &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return n;
}

static PyObject *tuple_of_ints(const long *values, Py_ssize_t n) {
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *tuple_of_bytes(const uint8_t *values, Py_ssize_t n) {
    long wide[MAX_CARDS];
    for (Py_ssize_t i = 0; i < n; i++) wide[i] = values[i];
    return tuple_of_ints(wide, n);
}

/* -- construction: the card facts of a compiled spec --------------------------------------------------------- */

static int read_card_table(PyObject *seq, long low, long high, const char *what, long *out) {
    Py_ssize_t n = read_ints(seq, low, high, CARD_TYPES, what, out);
    if (n < 0) return -1;
    if (n != CARD_TYPES) {
        PyErr_Format(PyExc_ValueError, "native core: %s has %zd entries, expected one per card type (%d)", what, n,
                     CARD_TYPES);
        return -1;
    }
    return 0;
}

/* At most SUITS natural card types of a rank, as the counting of melds, openings and takes assumes: -1 with an
 * exception naming the rank otherwise. */
static int check_suits(const CardFacts *facts) {
    int types[MELD_RANKS] = {0};
    for (int c = 0; c < CARD_TYPES; c++) {
        if (facts->is_wild[c] || ++types[facts->rank[c]] <= SUITS) continue;
        PyErr_Format(PyExc_ValueError, "native core: rank %d has more than %d natural card types", facts->rank[c],
                     SUITS);
        return -1;
    }
    return 0;
}

static int Position_init(Position *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"players", "sides", "rank", "is_wild", "is_red_three", "is_black_three", "is_bonus",
                            "melded_value", "held_value", "held_value_out", "canasta_size", NULL};
    int players, sides;
    PyObject *tables[9];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiOOOOOOOOO", names, &players, &sides, &tables[0], &tables[1],
                                     &tables[2], &tables[3], &tables[4], &tables[5], &tables[6], &tables[7],
                                     &tables[8]))
        return -1;
    if (players < 1 || players > MAX_SEATS || sides < 1 || sides > MAX_SIDES || sides > players) {
        PyErr_Format(PyExc_ValueError, "native core: %d players in %d sides; it holds 1 to %d players, 1 to %d sides",
                     players, sides, MAX_SEATS, MAX_SIDES);
        return -1;
    }
    long values[CARD_TYPES];
    CardFacts *facts = &self->facts;
    uint8_t *flags[] = {facts->rank, facts->is_wild, facts->is_red_three, facts->is_black_three, facts->is_bonus};
    const char *flag_names[] = {"rank", "is_wild", "is_red_three", "is_black_three", "is_bonus"};
    for (int t = 0; t < 5; t++) {
        if (read_card_table(tables[t], 0, t == 0 ? MELD_RANKS - 1 : 1, flag_names[t], values) < 0) return -1;
        for (int c = 0; c < CARD_TYPES; c++) flags[t][c] = (uint8_t)values[c];
    }
    if (check_suits(facts) < 0) return -1;
    int32_t *points[] = {facts->melded_value, facts->held_value[0], facts->held_value[1]};
    const char *point_names[] = {"melded_value", "held_value", "held_value_out"};
    for (int t = 0; t < 3; t++) {
        if (read_card_table(tables[5 + t], -1000000, 1000000, point_names[t], values) < 0) return -1;
        for (int c = 0; c < CARD_TYPES; c++) points[t][c] = (int32_t)values[c];
    }
    long sizes[MELD_RANKS];
    Py_ssize_t n = read_ints(tables[8], 0, 1000000, MELD_RANKS, "canasta_size", sizes);
    if (n < 0) return -1;
    if (n != MELD_RANKS) {
        PyErr_Format(PyExc_ValueError, "native core: canasta_size has %zd entries, expected one per meld rank (%d)", n,
                     MELD_RANKS);
        return -1;
    }
    for (int r = 0; r < MELD_RANKS; r++) facts->canasta_size[r] = (int32_t)sizes[r];
    self->players = players;
    self->sides = sides;
    memset(&self->state, 0, sizeof(State));
    return 0;
}

/* -- melds --------------------------------------------------------------------------------------------------- */

/* Add ``count`` copies of ``card`` to a meld, keeping its counts; -1 with an exception when too many. */
static int meld_add(const CardFacts *facts, NativeMeld *meld, int card, int count) {
    if (meld->counts[card] + count > MAX_COPIES || meld->size + count > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "native core: too many cards in a meld");
        return -1;
    }
    meld->counts[card] += (uint8_t)count;
    meld->size += (uint16_t)count;
    if (facts->is_wild[card]) meld->wilds += (uint16_t)count;
    else meld->naturals += (uint16_t)count;
    if (card == JOKER) meld->jokers += (uint16_t)count;
    return 0;
}

static int load_meld(const CardFacts *facts, PyObject *item, NativeMeld *meld) {
    PyObject *rank_obj, *cards, *closed;
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
        PyErr_SetString(PyExc_TypeError, "native core: a meld must be a tuple (rank, cards, closed)");
        return -1;
    }
    if (!PyArg_ParseTuple(item, "OOO", &rank_obj, &cards, &closed)) return -1;
    long rank, values[MAX_CARDS];
    if (read_int(rank_obj, 0, MELD_RANKS - 1, "a meld's rank", &rank) < 0) return -1;
    Py_ssize_t n = read_ints(cards, 0, CARD_TYPES - 1, MAX_CARDS, "a meld's cards", values);
    if (n < 0) return -1;
    memset(meld, 0, sizeof(NativeMeld));
    meld->rank = (uint8_t)rank;
    meld->closed = (uint8_t)PyObject_IsTrue(closed);
    for (Py_ssize_t i = 0; i < n; i++)
        if (meld_add(facts, meld, (int)values[i], 1) < 0) return -1;
    return 0;
}

/* A meld as ``load`` takes it (its rank, its cards in card order, whether it is closed), then its counts (size,
 * naturals, wild cards, jokers). */
static PyObject *export_meld(const NativeMeld *meld) {
    long cards[MAX_CARDS];
    Py_ssize_t n = 0;
    for (int c = 0; c < CARD_TYPES; c++)
        for (int k = 0; k < meld->counts[c]; k++) cards[n++] = c;
    PyObject *shown = tuple_of_ints(cards, n);
    if (shown == NULL) return NULL;
    return Py_BuildValue("(iNO(iiii))", meld->rank, shown, meld->closed ? Py_True : Py_False, meld->size,
                         meld->naturals, meld->wilds, meld->jokers);
}

/* -- load and export ----------------------------------------------------------------------------------------- */

static int load_hands(Position *self, State *s, PyObject *hands) {
    PyObject *fast = PySequence_Fast(hands, "native core: hands must be a sequence");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->players) {
        PyErr_Format(PyExc_ValueError, "native core: %zd hands for %d players", PySequence_Fast_GET_SIZE(fast),
                     self->players);
        Py_DECREF(fast);
        return -1;
    }
    long counts[CARD_TYPES];
    for (int seat = 0; seat < self->players; seat++) {
        if (read_card_table(PySequence_Fast_GET_ITEM(fast, seat), 0, MAX_COPIES, "a hand's count", counts) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        int32_t size = 0;
        for (int c = 0; c < CARD_TYPES; c++) {
            s->hands[seat][c] = (uint8_t)counts[c];
            size += (int32_t)counts[c];
        }
        s->hand_sizes[seat] = size;
    }
    Py_DECREF(fast);
    return 0;
}

static int load_cards(PyObject *seq, uint8_t *out, int32_t *len, const char *what) {
    long values[MAX_CARDS];
    Py_ssize_t n = read_ints(seq, 0, CARD_TYPES - 1, MAX_CARDS, what, values);
    if (n < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) out[i] = (uint8_t)values[i];
    *len = (int32_t)n;
    return 0;
}

static int load_melds(Position *self, State *s, PyObject *melds) {
    PyObject *sides = PySequence_Fast(melds, "native core: melds must be a sequence, one a side");
    if (sides == NULL) return -1;
    int failed = PySequence_Fast_GET_SIZE(sides) != self->sides;
    if (failed)
        PyErr_Format(PyExc_ValueError, "native core: melds for %zd sides, expected %d", PySequence_Fast_GET_SIZE(sides),
                     self->sides);
    for (int side = 0; !failed && side < self->sides; side++) {
        PyObject *own = PySequence_Fast(PySequence_Fast_GET_ITEM(sides, side), "native core: a side's melds");
        if (own == NULL) {
            failed = 1;
            break;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(own);
        if (n > MAX_MELDS) {
            PyErr_Format(PyExc_ValueError, "native core: a side has %zd melds, at most %d fit", n, MAX_MELDS);
            failed = 1;
        }
        for (Py_ssize_t i = 0; !failed && i < n; i++)
            failed = load_meld(&self->facts, PySequence_Fast_GET_ITEM(own, i), &s->melds[side][i]) < 0;
        s->meld_count[side] = (int32_t)n;
        Py_DECREF(own);
    }
    Py_DECREF(sides);
    return failed ? -1 : 0;
}

/* Each seat's cards of one kind (its bonus cards laid out, its foot) into ``out`` (rows of ``most``): one list a
 * seat, or none at all where ``optional`` (a variant without feet). Returns 1 if given, 0 if not, -1 on a refusal. */
static int load_seat_cards(Position *self, PyObject *seq, int optional, Py_ssize_t most, const char *what,
                           uint8_t *out, int32_t *lengths) {
    PyObject *fast = PySequence_Fast(seq, "native core: expected a sequence, one a seat");
    if (fast == NULL) return -1;
    Py_ssize_t given = PySequence_Fast_GET_SIZE(fast);
    if (given == 0 && optional) {
        Py_DECREF(fast);
        return 0;
    }
    int failed = given != self->players;
    if (failed) PyErr_Format(PyExc_ValueError, "native core: %s for %zd seats, expected %d", what, given, self->players);
    long values[MAX_CARDS];
    for (int seat = 0; !failed && seat < self->players; seat++) {
        Py_ssize_t n = read_ints(PySequence_Fast_GET_ITEM(fast, seat), 0, CARD_TYPES - 1, most, what, values);
        failed = n < 0;
        for (Py_ssize_t i = 0; !failed && i < n; i++) out[seat * most + i] = (uint8_t)values[i];
        lengths[seat] = failed ? 0 : (int32_t)n;
    }
    Py_DECREF(fast);
    return failed ? -1 : 1;
}

/* Each side's penalty points, or none at all (no penalty incurred yet). Returns 1, 0 or -1 as above. */
static int load_penalties(Position *self, State *s, PyObject *seq) {
    long values[MAX_SIDES];
    Py_ssize_t n = read_ints(seq, -MAX_PENALTY, MAX_PENALTY, MAX_SIDES, "penalties", values);
    if (n < 0) return -1;
    if (n == 0) return 0;
    if (n != self->sides) {
        PyErr_Format(PyExc_ValueError, "native core: penalties for %zd sides, expected %d", n, self->sides);
        return -1;
    }
    for (int i = 0; i < self->sides; i++) s->penalties[i] = (int32_t)values[i];
    return 1;
}

static int load_small(PyObject *seq, int count, long high, const char *what, uint8_t *out) {
    long values[MAX_SEATS];
    Py_ssize_t n = read_ints(seq, 0, high, MAX_SEATS, what, values);
    if (n < 0) return -1;
    if (n != count) {
        PyErr_Format(PyExc_ValueError, "native core: %s has %zd entries, expected %d", what, n, count);
        return -1;
    }
    for (int i = 0; i < count; i++) out[i] = (uint8_t)values[i];
    return 0;
}

/* Load a position (``core.position_fields`` gives these from a HandState); on a refusal the old one stays. */
static PyObject *Position_load(Position *self, PyObject *args) {
    PyObject *hands, *stock, *pile, *melds, *bonus, *opened, *side_of, *feet, *penalties;
    int to_act;
    if (!PyArg_ParseTuple(args, "OOOOOOOiOO", &hands, &stock, &pile, &melds, &bonus, &opened, &side_of, &to_act, &feet,
                          &penalties))
        return NULL;
    State *s = PyMem_Malloc(sizeof(State));
    if (s == NULL) return PyErr_NoMemory();
    memset(s, 0, sizeof(State));
    s->turn.asker = -1;
    int failed = load_hands(self, s, hands) < 0 || load_cards(stock, s->stock, &s->stock_len, "the stock") < 0 ||
                 load_cards(pile, s->pile, &s->pile_len, "the pile") < 0 || load_melds(self, s, melds) < 0 ||
                 load_seat_cards(self, bonus, 0, MAX_BONUS, "bonus cards", &s->bonus[0][0], s->bonus_len) < 0 ||
                 load_small(opened, self->sides, 1, "team_opened", s->team_opened) < 0 ||
                 load_small(side_of, self->players, self->sides - 1, "side_of", s->side_of) < 0;
    int has_feet = failed ? 0 : load_seat_cards(self, feet, 1, MAX_FOOT, "feet", &s->feet[0][0], s->feet_len);
    int has_penalties = failed || has_feet < 0 ? 0 : load_penalties(self, s, penalties);
    failed = failed || has_feet < 0 || has_penalties < 0;
    if (!failed && (to_act < 0 || to_act >= self->players)) {
        PyErr_Format(PyExc_ValueError, "native core: to_act is %d, expected a seat from 0 to %d", to_act,
                     self->players - 1);
        failed = 1;
    }
    if (!failed) {
        s->to_act = to_act;
        s->has_feet = (uint8_t)has_feet;
        s->has_penalties = (uint8_t)has_penalties;
        for (int i = 0; i < s->pile_len; i++) {
            s->pile_wilds += self->facts.is_wild[s->pile[i]];
            s->pile_red_threes += self->facts.is_red_three[s->pile[i]];
            s->pile_black_threes += self->facts.is_black_three[s->pile[i]];
        }
        memcpy(&self->state, s, sizeof(State));
    }
    PyMem_Free(s);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

static PyObject *export_hands(const Position *self) {
    PyObject *out = PyList_New(self->players);
    if (out == NULL) return NULL;
    for (int seat = 0; seat < self->players; seat++) {
        PyObject *hand = tuple_of_bytes(self->state.hands[seat], CARD_TYPES);
        if (hand == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, seat, hand);
    }
    return out;
}

static PyObject *export_melds(const Position *self) {
    PyObject *out = PyList_New(self->sides);
    if (out == NULL) return NULL;
    for (int side = 0; side < self->sides; side++) {
        PyObject *own = PyList_New(self->state.meld_count[side]);
        if (own == NULL) goto fail;
        PyList_SET_ITEM(out, side, own);
        for (int i = 0; i < self->state.meld_count[side]; i++) {
            PyObject *meld = export_meld(&self->state.melds[side][i]);
            if (meld == NULL) goto fail;
            PyList_SET_ITEM(own, i, meld);
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* Each seat's cards of one kind (rows of ``most``), as ``load_seat_cards`` takes them. */
static PyObject *export_seat_cards(const Position *self, const uint8_t *cards, const int32_t *lengths, Py_ssize_t most) {
    PyObject *out = PyList_New(self->players);
    if (out == NULL) return NULL;
    for (int seat = 0; seat < self->players; seat++) {
        PyObject *laid = tuple_of_bytes(cards + seat * most, lengths[seat]);
        if (laid == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, seat, laid);
    }
    return out;
}

/* The position as plain values: the fields of ``load``, then hand sizes and the pile's counts, for comparison. */
static PyObject *export_turn(const Position *self);

static PyObject *Position_export(Position *self, PyObject *Py_UNUSED(ignored)) {
    const State *s = &self->state;
    long sizes[MAX_SEATS], opened[MAX_SIDES], side_of[MAX_SEATS], penalties[MAX_SIDES];
    for (int i = 0; i < self->players; i++) sizes[i] = s->hand_sizes[i], side_of[i] = s->side_of[i];
    for (int i = 0; i < self->sides; i++) opened[i] = s->team_opened[i], penalties[i] = s->penalties[i];
    PyObject *feet = s->has_feet ? export_seat_cards(self, &s->feet[0][0], s->feet_len, MAX_FOOT) : PyList_New(0);
    return Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:N,s:N,s:N,s:(iii),s:N}", "hands", export_hands(self), "stock",
                         tuple_of_bytes(s->stock, s->stock_len), "pile", tuple_of_bytes(s->pile, s->pile_len), "melds",
                         export_melds(self), "bonus", export_seat_cards(self, &s->bonus[0][0], s->bonus_len, MAX_BONUS),
                         "team_opened", tuple_of_ints(opened, self->sides), "side_of",
                         tuple_of_ints(side_of, self->players), "to_act", s->to_act, "feet", feet, "penalties",
                         tuple_of_ints(penalties, s->has_penalties ? self->sides : 0), "hand_sizes",
                         tuple_of_ints(sizes, self->players), "pile_counts", s->pile_wilds, s->pile_red_threes,
                         s->pile_black_threes, "turn", export_turn(self));
}

/* -- card moves ---------------------------------------------------------------------------------------------- */

static int check_seat(const Position *self, int seat) {
    if (seat < 0 || seat >= self->players) {
        PyErr_Format(PyExc_ValueError, "native core: there is no seat %d (seats 0 to %d)", seat, self->players - 1);
        return -1;
    }
    return 0;
}

static int check_card(int card) {
    if (card < 0 || card >= CARD_TYPES) {
        PyErr_Format(PyExc_ValueError, "native core: there is no card %d (cards 0 to %d)", card, CARD_TYPES - 1);
        return -1;
    }
    return 0;
}

/* Load the turn's flags (``core.turn_fields`` gives them from a HandState); on a refusal the old ones stay. A
 * position loaded with ``load`` has them all cleared, so ``load`` comes first. */
static PyObject *Position_load_turn(Position *self, PyObject *args) {
    int phase, permission, melded, asked, took, last_card_bonus, upcard_froze, asker = -1;
    unsigned long asked_in_hand, awaiting = 0;
    PyObject *owed;
    if (!PyArg_ParseTuple(args, "iipppppkO|ik", &phase, &permission, &melded, &asked, &took, &last_card_bonus,
                          &upcard_froze, &asked_in_hand, &owed, &asker, &awaiting))
        return NULL;
    if (awaiting >> self->players)
        return PyErr_Format(PyExc_ValueError, "native core: awaiting_first_turn names a seat beyond %d",
                            self->players - 1);
    if (asker < -1 || asker >= self->players)
        return PyErr_Format(PyExc_ValueError, "native core: the seat that asked is %d, expected -1 to %d", asker,
                            self->players - 1);
    if (phase < 0 || phase >= PHASES || permission < 0 || permission >= PERMISSIONS)
        return PyErr_Format(PyExc_ValueError, "native core: phase %d and permission %d, expected 0 to %d and 0 to %d",
                            phase, permission, PHASES - 1, PERMISSIONS - 1);
    if (asked_in_hand >> self->players)
        return PyErr_Format(PyExc_ValueError, "native core: asked_in_hand names a seat beyond %d", self->players - 1);
    long values[MAX_SEATS];
    Py_ssize_t n = read_ints(owed, 0, MAX_CARDS, MAX_SEATS, "bonus cards owed", values);
    if (n < 0) return NULL;
    if (n != 0 && n != self->players)
        return PyErr_Format(PyExc_ValueError, "native core: bonus cards owed for %zd seats, expected %d", n,
                            self->players);
    Turn *t = &self->state.turn;
    memset(t, 0, sizeof(Turn));
    t->phase = (uint8_t)phase, t->permission = (uint8_t)permission, t->melded = (uint8_t)melded;
    t->asked = (uint8_t)asked, t->took = (uint8_t)took, t->last_card_bonus = (uint8_t)last_card_bonus;
    t->upcard_froze = (uint8_t)upcard_froze, t->asked_in_hand = (uint32_t)asked_in_hand, t->has_owed = n > 0;
    for (Py_ssize_t i = 0; i < n; i++) t->owed[i] = (int32_t)values[i];
    t->asker = asker;
    t->awaiting_first_turn = (uint32_t)awaiting;
    Py_RETURN_NONE;
}

/* The turn's flags as ``load_turn`` takes them. */
static PyObject *export_turn(const Position *self) {
    const Turn *t = &self->state.turn;
    long owed[MAX_SEATS];
    for (int i = 0; i < self->players; i++) owed[i] = t->owed[i];
    return Py_BuildValue("(iiOOOOOkNik)", t->phase, t->permission, t->melded ? Py_True : Py_False,
                         t->asked ? Py_True : Py_False, t->took ? Py_True : Py_False,
                         t->last_card_bonus ? Py_True : Py_False, t->upcard_froze ? Py_True : Py_False,
                         (unsigned long)t->asked_in_hand,
                         tuple_of_ints(owed, t->has_owed ? self->players : 0), (int)t->asker,
                         (unsigned long)t->awaiting_first_turn);
}

/* The turn's flags alone (``export``'s "turn"), without building the whole position's dict. */
static PyObject *Position_turn(Position *self, PyObject *Py_UNUSED(ignored)) { return export_turn(self); }

/* What applying an action reads of the table, each alone: a seat's side, the pile, and the side's open meld of a
 * rank (its index, -1 for none, and its counts: size, naturals, wild cards, jokers). */
static PyObject *Position_side_of(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    return PyLong_FromLong(self->state.side_of[seat]);
}

static PyObject *Position_pile(Position *self, PyObject *Py_UNUSED(ignored)) {
    return tuple_of_bytes(self->state.pile, self->state.pile_len);
}

/* The index of a side's first open (not closed) meld of ``rank``, or -1: the meld cards of that rank join. */
static int open_meld_index(const Position *self, int side, int rank) {
    for (int i = 0; i < self->state.meld_count[side]; i++) {
        const NativeMeld *m = &self->state.melds[side][i];
        if (m->rank == rank && !m->closed) return i;
    }
    return -1;
}

/* ``open_meld_index`` where ``merging`` has the rank's bit (hook meld.merge_same_rank), else -1: a new meld. */
static int merge_index(const Position *self, int side, int rank, long merging) {
    return merging >> rank & 1 ? open_meld_index(self, side, rank) : -1;
}

static PyObject *Position_open_meld(Position *self, PyObject *args) {
    int side, rank;
    if (!PyArg_ParseTuple(args, "ii", &side, &rank)) return NULL;
    if (side < 0 || side >= self->sides) return PyErr_Format(PyExc_ValueError, "native core: no side %d", side);
    int i = open_meld_index(self, side, rank);
    if (i < 0) return Py_BuildValue("(iO)", -1, Py_None);
    const NativeMeld *m = &self->state.melds[side][i];
    return Py_BuildValue("(i(iiii))", i, m->size, m->naturals, m->wilds, m->jokers);
}

/* The sizes of a side's melds, in order: what a game on the core compares before and after a meld or a take to
 * know the melds it made and those it added to (cards are only ever added to a meld there; ``core.game``), without
 * exporting the whole position twice. */
static PyObject *Position_meld_sizes(Position *self, PyObject *args) {
    int side;
    if (!PyArg_ParseTuple(args, "i", &side)) return NULL;
    if (side < 0 || side >= self->sides) return PyErr_Format(PyExc_ValueError, "native core: no side %d", side);
    long sizes[MAX_MELDS];
    for (int i = 0; i < self->state.meld_count[side]; i++) sizes[i] = self->state.melds[side][i].size;
    return tuple_of_ints(sizes, self->state.meld_count[side]);
}

/* One seat's hand (by default the seat to act's), counted by card type. */
static PyObject *Position_hand(Position *self, PyObject *args) {
    int seat = self->state.to_act;
    if (!PyArg_ParseTuple(args, "|i", &seat) || check_seat(self, seat) < 0) return NULL;
    return tuple_of_bytes(self->state.hands[seat], CARD_TYPES);
}

/* The cards a seat has to play (``HandState.cards_held``): its hand, its foot face down, the bonus cards owed. */
static int cards_held(const Position *self, int seat) {
    const State *s = &self->state;
    return s->hand_sizes[seat] + (s->has_feet ? s->feet_len[seat] : 0) + s->turn.owed[seat];
}

static PyObject *Position_cards_held(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    return PyLong_FromLong(cards_held(self, seat));
}

/* One card into a hand (the caller knows it holds fewer than MAX_COPIES of it). */
static void take_card(State *s, int seat, int card) {
    s->hands[seat][card]++;
    s->hand_sizes[seat]++;
}

/* ``count`` copies of a card out of a hand (the caller knows it holds them). */
static void give_card(State *s, int seat, int card, int count) {
    s->hands[seat][card] -= (uint8_t)count;
    s->hand_sizes[seat] -= count;
}

/* ``count`` copies of a bonus card from a hand laid out before its seat (the caller knows it holds them and that
 * they fit). */
static void lay_out(State *s, int seat, int card, int count) {
    for (int i = 0; i < count; i++) s->bonus[seat][s->bonus_len[seat]++] = (uint8_t)card;
    give_card(s, seat, card, count);
}

/* A new, empty meld of ``rank`` after a side's others (the caller knows there is room): its index. */
static int new_meld(State *s, int side, int rank) {
    int index = s->meld_count[side]++;
    memset(&s->melds[side][index], 0, sizeof(NativeMeld));
    s->melds[side][index].rank = (uint8_t)rank;
    return index;
}

/* The pile's top card off it, its counts of wild cards and threes kept: the card (the pile is not empty). */
static int pop_pile(Position *self) {
    State *s = &self->state;
    int card = s->pile[--s->pile_len];
    s->pile_wilds -= self->facts.is_wild[card];
    s->pile_red_threes -= self->facts.is_red_three[card];
    s->pile_black_threes -= self->facts.is_black_three[card];
    return card;
}

/* A side's penalties grow by ``points``, the table of them started at zero where the position had none. */
static void add_penalty(State *s, int side, int32_t points) {
    if (!s->has_penalties) {
        memset(s->penalties, 0, sizeof(s->penalties));
        s->has_penalties = 1;
    }
    s->penalties[side] += points;
}

static void push_pile(Position *self, int card) {
    State *s = &self->state;
    s->pile[s->pile_len++] = (uint8_t)card;
    s->pile_wilds += self->facts.is_wild[card];
    s->pile_red_threes += self->facts.is_red_three[card];
    s->pile_black_threes += self->facts.is_black_three[card];
}

/* Draw ``count`` cards from the top of the stock (the end of its list) into a hand: the cards drawn. */
static PyObject *Position_draw(Position *self, PyObject *args) {
    int seat, count;
    if (!PyArg_ParseTuple(args, "ii", &seat, &count) || check_seat(self, seat) < 0) return NULL;
    State *s = &self->state;
    if (count < 0) return PyErr_Format(PyExc_ValueError, "native core: cannot draw %d cards", count);
    long drawn[MAX_CARDS];
    int n = 0;
    for (; n < count && s->stock_len > 0; n++) {
        int card = s->stock[--s->stock_len];
        if (s->hands[seat][card] == MAX_COPIES) {
            s->stock_len++;
            return PyErr_Format(PyExc_ValueError, "native core: too many copies of card %d in hand", card);
        }
        take_card(s, seat, card);
        drawn[n] = card;
    }
    return tuple_of_ints(drawn, n);
}

/* Move one card from a hand to the top of the pile. */
static PyObject *Position_discard(Position *self, PyObject *args) {
    int seat, card;
    if (!PyArg_ParseTuple(args, "ii", &seat, &card) || check_seat(self, seat) < 0 || check_card(card) < 0) return NULL;
    State *s = &self->state;
    if (s->hands[seat][card] == 0)
        return PyErr_Format(PyExc_ValueError, "native core: seat %d holds no card %d to discard", seat, card);
    if (s->pile_len == MAX_CARDS) return PyErr_Format(PyExc_ValueError, "native core: the pile is full");
    give_card(s, seat, card, 1);
    push_pile(self, card);
    Py_RETURN_NONE;
}

/* Pass the turn to the next seat: the seat to act after a discard. */
static PyObject *Position_pass_turn(Position *self, PyObject *Py_UNUSED(ignored)) {
    self->state.to_act = (self->state.to_act + 1) % self->players;
    return PyLong_FromLong(self->state.to_act);
}

/* Take the pile's top card alone into a hand, the counts that freeze the rest kept: the card. */
static PyObject *Position_lift_top(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    State *s = &self->state;
    if (s->pile_len == 0) return PyErr_Format(PyExc_ValueError, "native core: the pile is empty");
    int card = s->pile[s->pile_len - 1];
    if (s->hands[seat][card] == MAX_COPIES)
        return PyErr_Format(PyExc_ValueError, "native core: too many copies of card %d in hand", card);
    take_card(s, seat, pop_pile(self));
    return PyLong_FromLong(card);
}

/* Whether a side's penalties can grow by ``points``: the charge and the side's sum within MAX_PENALTY either way,
 * as ``load`` takes them (a 32-bit count, never wrapped). 0, or -1 with an exception naming the bound and ``what``
 * charged (the Python path's penalty, or hook penalty.turn_end's answer in ``apply.c``). */
static int penalty_fits(const State *s, int side, long points, const char *what) {
    if (points < -MAX_PENALTY || points > MAX_PENALTY) {
        PyErr_Format(PyExc_ValueError, "native core: %s of %ld points is past the %d the core keeps", what, points,
                     MAX_PENALTY);
        return -1;
    }
    long total = (s->has_penalties ? s->penalties[side] : 0) + points;
    if (total < -MAX_PENALTY || total > MAX_PENALTY) {
        PyErr_Format(PyExc_ValueError, "native core: side %d's penalties would come to %ld points, past the %d the "
                     "core keeps", side, total, MAX_PENALTY);
        return -1;
    }
    return 0;
}

/* Add ``points`` to a side's penalties (hook penalty.turn_end), the tally of every side begun at 0 if none was; a
 * sum past what the core keeps is refused with the penalties unchanged. */
static PyObject *Position_penalise(Position *self, PyObject *args) {
    int side;
    long points;
    if (!PyArg_ParseTuple(args, "il", &side, &points)) return NULL;
    if (side < 0 || side >= self->sides) return PyErr_Format(PyExc_ValueError, "native core: no side %d", side);
    if (penalty_fits(&self->state, side, points, "a penalty") < 0) return NULL;
    add_penalty(&self->state, side, (int32_t)points);
    Py_RETURN_NONE;
}

/* A seat's foot, face down until now, into its hand: the cards picked up (none where it has no foot left). */
static PyObject *Position_pick_up_foot(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    State *s = &self->state;
    long cards[MAX_FOOT];
    int n = s->has_feet ? s->feet_len[seat] : 0;
    for (int i = 0; i < n; i++) {
        int card = s->feet[seat][i];
        if (s->hands[seat][card] == MAX_COPIES)
            return PyErr_Format(PyExc_ValueError, "native core: too many copies of card %d in hand", card);
    }
    for (int i = 0; i < n; i++) {
        int card = s->feet[seat][i];
        take_card(s, seat, card);
        cards[i] = card;
    }
    if (s->has_feet) s->feet_len[seat] = 0;
    return tuple_of_ints(cards, n);
}

/* Two of a side's melds made one of ``rank`` (their indices from 0): the combined meld takes the first one's place,
 * and the melds after the second move up one place (``checks.apply_combine``). */
static PyObject *Position_combine(Position *self, PyObject *args) {
    int side, first, second, rank;
    if (!PyArg_ParseTuple(args, "iiii", &side, &first, &second, &rank)) return NULL;
    if (side < 0 || side >= self->sides) return PyErr_Format(PyExc_ValueError, "native core: no side %d", side);
    State *s = &self->state;
    int count = s->meld_count[side];
    if (first < 0 || second < 0 || first >= count || second >= count || first == second)
        return PyErr_Format(PyExc_ValueError, "native core: side %d cannot combine melds %d and %d", side, first, second);
    if (rank < 0 || rank >= MELD_RANKS) return PyErr_Format(PyExc_ValueError, "native core: no meld rank %d", rank);
    NativeMeld merged;
    memset(&merged, 0, sizeof(NativeMeld));
    merged.rank = (uint8_t)rank;
    const NativeMeld *a = &s->melds[side][first], *b = &s->melds[side][second];
    for (int c = 0; c < CARD_TYPES; c++) {
        int copies = a->counts[c] + b->counts[c];
        if (copies && meld_add(&self->facts, &merged, c, copies) < 0) return NULL;
    }
    s->melds[side][first] = merged;
    memmove(&s->melds[side][second], &s->melds[side][second + 1], (size_t)(count - second - 1) * sizeof(NativeMeld));
    s->meld_count[side] = count - 1;
    Py_RETURN_NONE;
}

/* Put a meld among a side's melds, merged into its open meld of that rank where ``merging`` has the rank's bit. */
static int pool_meld(Position *self, int side, const NativeMeld *meld, long merging) {
    State *s = &self->state;
    int index = merge_index(self, side, meld->rank, merging);
    if (index < 0) {
        if (s->meld_count[side] == MAX_MELDS) {
            PyErr_SetString(PyExc_ValueError, "native core: too many melds");
            return -1;
        }
        s->melds[side][s->meld_count[side]++] = *meld;
        return 0;
    }
    for (int c = 0; c < CARD_TYPES; c++)
        if (meld->counts[c] && meld_add(&self->facts, &s->melds[side][index], c, meld->counts[c]) < 0) return -1;
    return 0;
}

/* ``lone`` plays alone: every other seat joins the lowest of their sides, their melds pooled into it (merged by
 * rank where ``merging`` has the rank's bit) and its having melded theirs too (``sides.form_lone_hand``). */
static PyObject *Position_form_lone_hand(Position *self, PyObject *args) {
    int lone;
    long merging;
    if (!PyArg_ParseTuple(args, "il", &lone, &merging) || check_seat(self, lone) < 0) return NULL;
    State *s = &self->state;
    int joined[MAX_SIDES] = {0}, target = -1;
    for (int seat = 0; seat < self->players; seat++)
        if (seat != lone && s->side_of[seat] != s->side_of[lone]) joined[s->side_of[seat]] = 1;
    for (int side = 0; side < self->sides; side++) {
        if (!joined[side]) continue;
        if (target < 0) {
            target = side;
            continue;
        }
        for (int i = 0; i < s->meld_count[side]; i++)
            if (pool_meld(self, target, &s->melds[side][i], merging) < 0) return NULL;
        s->meld_count[side] = 0;
        s->team_opened[target] = s->team_opened[target] || s->team_opened[side];
        s->team_opened[side] = 0;
    }
    if (target < 0) Py_RETURN_NONE;
    for (int seat = 0; seat < self->players; seat++)
        if (seat != lone) s->side_of[seat] = (uint8_t)target;
    Py_RETURN_NONE;
}

/* Hand the turn to ``seat`` (a partner asked "may I go out?", and the asker again after the answer). */
static PyObject *Position_turn_to(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    self->state.to_act = seat;
    Py_RETURN_NONE;
}

/* Lay cards from a hand on a side's meld (its index from 0; -1 starts a new meld of ``rank``): the meld's index. */
static PyObject *Position_lay(Position *self, PyObject *args) {
    int seat, index, rank;
    PyObject *cards;
    if (!PyArg_ParseTuple(args, "iiiO", &seat, &index, &rank, &cards) || check_seat(self, seat) < 0) return NULL;
    State *s = &self->state;
    int side = s->side_of[seat];
    long values[MAX_CARDS];
    Py_ssize_t n = read_ints(cards, 0, CARD_TYPES - 1, MAX_CARDS, "the cards laid", values);
    if (n < 0) return NULL;
    int wanted[CARD_TYPES] = {0}; /* an int: 256 copies asked of a hand holding 255 must not wrap to none */
    for (Py_ssize_t i = 0; i < n; i++)
        if (++wanted[values[i]] > s->hands[seat][values[i]])
            return PyErr_Format(PyExc_ValueError, "native core: seat %d does not hold card %ld to lay", seat, values[i]);
    if (index < -1 || index >= s->meld_count[side])
        return PyErr_Format(PyExc_ValueError, "native core: side %d has no meld %d", side, index);
    if (index == -1) {
        if (s->meld_count[side] == MAX_MELDS) return PyErr_Format(PyExc_ValueError, "native core: too many melds");
        if (rank < 0 || rank >= MELD_RANKS) return PyErr_Format(PyExc_ValueError, "native core: no meld rank %d", rank);
        index = new_meld(s, side, rank);
    }
    NativeMeld *meld = &s->melds[side][index];
    for (int c = 0; c < CARD_TYPES; c++) {
        if (!wanted[c]) continue;
        if (meld_add(&self->facts, meld, c, wanted[c]) < 0) return NULL;
        give_card(s, seat, c, wanted[c]);
    }
    s->team_opened[side] = 1;
    return PyLong_FromLong(index);
}

/* Lay ``count`` copies of a bonus card from a hand out in front of its seat (a red three laid out, say). */
static PyObject *Position_lay_out(Position *self, PyObject *args) {
    int seat, card, count;
    if (!PyArg_ParseTuple(args, "iii", &seat, &card, &count) || check_seat(self, seat) < 0 || check_card(card) < 0)
        return NULL;
    State *s = &self->state;
    if (count < 0 || s->hands[seat][card] < count)
        return PyErr_Format(PyExc_ValueError, "native core: seat %d does not hold %d of card %d to lay out", seat,
                            count, card);
    if (s->bonus_len[seat] + count > MAX_BONUS) return PyErr_Format(PyExc_ValueError, "native core: too many bonus cards");
    lay_out(s, seat, card, count);
    Py_RETURN_NONE;
}

/* Close a side's meld (its index from 0): set aside, as hook meld.closed decides (the reference asks it). */
static PyObject *Position_close(Position *self, PyObject *args) {
    int side, index;
    if (!PyArg_ParseTuple(args, "ii", &side, &index)) return NULL;
    if (side < 0 || side >= self->sides || index < 0 || index >= self->state.meld_count[side])
        return PyErr_Format(PyExc_ValueError, "native core: side %d has no meld %d", side, index);
    self->state.melds[side][index].closed = 1;
    Py_RETURN_NONE;
}

/* Whether ``seat`` can take ``gains`` into its hand and lay out ``bonus`` more bonus cards (``native/apply.c``, the
 * C entry's check of its narrow counts, MAX_COPIES and MAX_BONUS): 0, or -1 with an exception naming the bound. */
static int hand_takes(const State *s, int seat, const int gains[CARD_TYPES], int bonus);

/* Take the pile into a hand, its bonus cards laid out instead, from the bottom card up to (not including) the
 * top ``keep_top`` cards, which stay: the cards taken into the hand. What they bring is checked against the hand's
 * copies of a card and the seat's bonus cards laid out before anything moves, never wrapped. */
static PyObject *Position_pick_up(Position *self, PyObject *args) {
    int seat, keep_top;
    if (!PyArg_ParseTuple(args, "ii", &seat, &keep_top) || check_seat(self, seat) < 0) return NULL;
    State *s = &self->state;
    if (keep_top < 0 || keep_top > s->pile_len)
        return PyErr_Format(PyExc_ValueError, "native core: cannot leave %d cards of a pile of %d", keep_top, s->pile_len);
    long taken[MAX_CARDS];
    int n = 0, upto = s->pile_len - keep_top, gains[CARD_TYPES] = {0}, bonus = 0;
    for (int i = 0; i < upto; i++) {
        if (self->facts.is_bonus[s->pile[i]]) bonus++;
        else gains[s->pile[i]]++;
    }
    if (hand_takes(s, seat, gains, bonus) < 0) return NULL;
    for (int i = 0; i < upto; i++) {
        int card = s->pile[i];
        if (self->facts.is_bonus[card]) {
            s->bonus[seat][s->bonus_len[seat]++] = (uint8_t)card;
        } else {
            take_card(s, seat, card);
            taken[n++] = card;
        }
    }
    memmove(s->pile, s->pile + upto, (size_t)keep_top);
    s->pile_len = keep_top;
    s->pile_wilds = s->pile_red_threes = s->pile_black_threes = 0;
    for (int i = 0; i < s->pile_len; i++) {
        s->pile_wilds += self->facts.is_wild[s->pile[i]];
        s->pile_red_threes += self->facts.is_red_three[s->pile[i]];
        s->pile_black_threes += self->facts.is_black_three[s->pile[i]];
    }
    return tuple_of_ints(taken, n);
}

/* -- what the listing and the score read --------------------------------------------------------------------- */

/* A hand's cards counted by rank (the 14 card ranks; jokers last). */
static PyObject *Position_rank_counts(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    long counts[MELD_RANKS - 1] = {0};
    for (int c = 0; c < CARD_TYPES; c++) counts[self->facts.rank[c]] += self->state.hands[seat][c];
    return tuple_of_ints(counts, MELD_RANKS - 1);
}

/* The card types a hand holds, in card order: the candidates of a discard. */
static PyObject *Position_held_types(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    long held[CARD_TYPES];
    Py_ssize_t n = 0;
    for (int c = 0; c < CARD_TYPES; c++)
        if (self->state.hands[seat][c]) held[n++] = c;
    return tuple_of_ints(held, n);
}

/* A side's card facts for its hand score (``core.score``): points melded, points held (at the values of a hand
 * someone went out of, or not), canastas by kind (natural, mixed, wild, sequence), bonus cards laid out, black
 * threes melded, the most black threes one player holds, bonus cards still held, points in feet still face down,
 * bonus cards laid out that are red and that are black, penalty points. */
static PyObject *Position_side_facts(Position *self, PyObject *args) {
    int side, anyone_out;
    if (!PyArg_ParseTuple(args, "ip", &side, &anyone_out)) return NULL;
    if (side < 0 || side >= self->sides)
        return PyErr_Format(PyExc_ValueError, "native core: there is no side %d", side);
    const State *s = &self->state;
    const CardFacts *f = &self->facts;
    long melded = 0, held = 0, kinds[4] = {0}, laid = 0, black_melded = 0, most_black = 0, bonus_held = 0;
    long foot = 0, red_laid = 0, black_laid = 0;
    for (int i = 0; i < s->meld_count[side]; i++) {
        const NativeMeld *meld = &s->melds[side][i];
        for (int c = 0; c < CARD_TYPES; c++) {
            melded += (long)f->melded_value[c] * meld->counts[c];
            if (meld->rank == 1) black_melded += (long)f->is_black_three[c] * meld->counts[c];
        }
        if (meld->size >= f->canasta_size[meld->rank])
            kinds[meld->rank == MELD_RANKS - 1 ? 3 : meld->wilds == 0 ? 0 : meld->naturals == 0 ? 2 : 1]++;
    }
    for (int seat = 0; seat < self->players; seat++) {
        if (s->side_of[seat] != side) continue;
        long black = 0;
        for (int c = 0; c < CARD_TYPES; c++) {
            held += (long)f->held_value[anyone_out][c] * s->hands[seat][c];
            black += (long)f->is_black_three[c] * s->hands[seat][c];
            bonus_held += (long)f->is_bonus[c] * s->hands[seat][c];
        }
        most_black = black > most_black ? black : most_black;
        laid += s->bonus_len[seat];
        for (int i = 0; i < s->bonus_len[seat]; i++) {
            int card = s->bonus[seat][i];
            int red = card != JOKER && ((card & 3) == 1 || (card & 3) == 2);
            red_laid += red;
            black_laid += card != JOKER && !red;
        }
        for (int i = 0; s->has_feet && i < s->feet_len[seat]; i++) foot += f->held_value[anyone_out][s->feet[seat][i]];
    }
    return Py_BuildValue("(ll(llll)llllllll)", melded, held, kinds[0], kinds[1], kinds[2], kinds[3], laid, black_melded,
                         most_black, bonus_held, foot, red_laid, black_laid, (long)s->penalties[side]);
}

/* How many bonus cards a seat has laid out (``score.player``'s red threes). */
static PyObject *Position_bonus_laid(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    return PyLong_FromLong(self->state.bonus_len[seat]);
}

/* The values of the variables every hook about the table shares, for ``seat`` (``hooks.TABLE_VARIABLES`` in
 * order: the seat, whether its side has opened, its side's canastas, the stock's size, the pile's size, the seat's
 * hand size), as ``engine.checks.table_values`` gives them. */
static void table_values_of(const Position *self, int seat, int32_t out[TABLE_WIDTH]) {
    const State *s = &self->state;
    int side = s->side_of[seat];
    int32_t canastas = 0;
    for (int i = 0; i < s->meld_count[side]; i++)
        canastas += s->melds[side][i].size >= self->facts.canasta_size[s->melds[side][i].rank];
    out[0] = seat;
    out[1] = s->team_opened[side];
    out[2] = canastas;
    out[3] = s->stock_len;
    out[4] = s->pile_len;
    out[5] = s->hand_sizes[seat];
}

static PyObject *Position_table_values(Position *self, PyObject *args) {
    int seat;
    if (!PyArg_ParseTuple(args, "i", &seat) || check_seat(self, seat) < 0) return NULL;
    int32_t values[TABLE_WIDTH];
    table_values_of(self, seat, values);
    return Py_BuildValue("(iOiiii)", values[0], values[1] ? Py_True : Py_False, values[2], values[3], values[4],
                         values[5]);
}

/* -- undo ---------------------------------------------------------------------------------------------------- */

/* A snapshot holds the position's used part only (a game on the core takes one an action for its undo, and the
 * whole State is mostly room for melds and cards not there, about 21 KB): the fields before the melds, each side's
 * melds, the stock's and the pile's cards, then the fields after the pile's, in that order. Nothing of the State
 * beyond a meld count or a length is ever read, so restoring these parts restores the position. */
#define SNAPSHOT_HEAD offsetof(State, melds)
#define SNAPSHOT_TAIL (sizeof(State) - offsetof(State, stock_len))

static PyObject *Position_snapshot(Position *self, PyObject *Py_UNUSED(ignored)) {
    const State *s = &self->state;
    size_t melds = 0;
    for (int side = 0; side < MAX_SIDES; side++) melds += (size_t)s->meld_count[side] * sizeof(NativeMeld);
    size_t size = SNAPSHOT_HEAD + melds + (size_t)s->stock_len + (size_t)s->pile_len + SNAPSHOT_TAIL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out == NULL) return NULL;
    char *at = PyBytes_AS_STRING(out);
    memcpy(at, s, SNAPSHOT_HEAD), at += SNAPSHOT_HEAD;
    for (int side = 0; side < MAX_SIDES; side++) {
        size_t bytes = (size_t)s->meld_count[side] * sizeof(NativeMeld);
        memcpy(at, s->melds[side], bytes), at += bytes;
    }
    memcpy(at, s->stock, (size_t)s->stock_len), at += s->stock_len;
    memcpy(at, s->pile, (size_t)s->pile_len), at += s->pile_len;
    memcpy(at, &s->stock_len, SNAPSHOT_TAIL);
    return out;
}

/* Whether ``data`` (``size`` bytes) is a snapshot's layout: its meld counts and lengths within their bounds and
 * its size the one they make. */
static int snapshot_fits(const char *data, size_t size) {
    if (size < SNAPSHOT_HEAD + SNAPSHOT_TAIL) return 0;
    int32_t counts[MAX_SIDES], lengths[2];
    memcpy(counts, data + offsetof(State, meld_count), sizeof(counts));
    memcpy(lengths, data + size - SNAPSHOT_TAIL, sizeof(lengths)); /* stock_len, then pile_len */
    size_t expected = SNAPSHOT_HEAD + SNAPSHOT_TAIL;
    for (int side = 0; side < MAX_SIDES; side++) {
        if (counts[side] < 0 || counts[side] > MAX_MELDS) return 0;
        expected += (size_t)counts[side] * sizeof(NativeMeld);
    }
    for (int i = 0; i < 2; i++) {
        if (lengths[i] < 0 || lengths[i] > MAX_CARDS) return 0;
        expected += (size_t)lengths[i];
    }
    return expected == size;
}

static PyObject *Position_restore(Position *self, PyObject *arg) {
    if (!PyBytes_Check(arg))
        return PyErr_Format(PyExc_TypeError, "native core: restore takes the bytes snapshot() gave, not a %s",
                            Py_TYPE(arg)->tp_name);
    if (!snapshot_fits(PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg)))
        return PyErr_Format(PyExc_ValueError, "native core: restore takes the bytes snapshot() gave; these %zd bytes "
                            "are not a snapshot", PyBytes_GET_SIZE(arg));
    State *s = &self->state;
    const char *at = PyBytes_AS_STRING(arg);
    memcpy(s, at, SNAPSHOT_HEAD), at += SNAPSHOT_HEAD;
    for (int side = 0; side < MAX_SIDES; side++) {
        size_t bytes = (size_t)s->meld_count[side] * sizeof(NativeMeld);
        memcpy(s->melds[side], at, bytes), at += bytes;
    }
    memcpy(&s->stock_len, PyBytes_AS_STRING(arg) + PyBytes_GET_SIZE(arg) - SNAPSHOT_TAIL, SNAPSHOT_TAIL);
    memcpy(s->stock, at, (size_t)s->stock_len), at += s->stock_len;
    memcpy(s->pile, at, (size_t)s->pile_len);
    Py_RETURN_NONE;
}

/* -- the memo of rule answers -------------------------------------------------------------------------------- */

/* A rule question's answers, kept by the values its clauses read, each encoded as a small int (``memo.py``): one
 * flat key of ``width`` ints. On a miss the memo calls back into Python with the key as a tuple (where the clauses
 * run) and keeps the answer (a clause, None, a bool or a number). Open addressing over a table a power of two long,
 * never more than half full; at ``limit`` entries it empties and starts again, as ``rules.remember`` does. */
#define MEMO_MAX_WIDTH 32
#define MEMO_FIRST_CAPACITY 64

typedef struct {
    PyObject_HEAD
    int width;
    Py_ssize_t limit;
    PyObject *callback;
    Py_ssize_t capacity, size;
    int32_t *keys;       /* capacity rows of width ints */
    uint8_t *used;       /* one a row */
    PyObject **answers;  /* one a row, owned */
    long long hits, misses;
    /* How the core builds a key natively (``set_recipe``): each value's source and its place there. */
    int has_recipe;
    uint8_t source[MEMO_MAX_WIDTH], place[MEMO_MAX_WIDTH];
} RuleMemo;

/* Where a value of a natively built key comes from: the table values (``hooks.TABLE_VARIABLES``), the card's facts
 * (``hooks.CARD_VARIABLES``, then whether any side has a canasta of its rank), or the caller's own values. */
enum { KEY_TABLE, KEY_CARD, KEY_ARGUMENT, KEY_SOURCES };
#define CARD_KEY_VALUES 6
#define MAX_KEY_ARGUMENTS 24
static const int key_source_size[KEY_SOURCES] = {TABLE_WIDTH, CARD_KEY_VALUES, MAX_KEY_ARGUMENTS};

static uint64_t memo_hash(const int32_t *key, int width) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < width; i++) {
        h ^= (uint32_t)key[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static void memo_empty(RuleMemo *self) {
    for (Py_ssize_t i = 0; i < self->capacity; i++)
        if (self->used[i]) Py_CLEAR(self->answers[i]);
    memset(self->used, 0, (size_t)self->capacity);
    self->size = 0;
}

static void memo_free_table(RuleMemo *self) {
    if (self->used != NULL) memo_empty(self);
    PyMem_Free(self->keys);
    PyMem_Free(self->used);
    PyMem_Free(self->answers);
    self->keys = NULL, self->used = NULL, self->answers = NULL;
    self->capacity = self->size = 0;
}

static int memo_alloc(RuleMemo *self, Py_ssize_t capacity) {
    self->keys = PyMem_Calloc((size_t)(capacity * self->width) + 1, sizeof(int32_t));
    self->used = PyMem_Calloc((size_t)capacity, 1);
    self->answers = PyMem_Calloc((size_t)capacity, sizeof(PyObject *));
    self->capacity = capacity;
    self->size = 0;
    if (self->keys == NULL || self->used == NULL || self->answers == NULL) {
        memo_free_table(self);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The row holding ``key``, or the empty row where it would go. */
static Py_ssize_t memo_slot(const RuleMemo *self, const int32_t *key) {
    Py_ssize_t mask = self->capacity - 1, i = (Py_ssize_t)(memo_hash(key, self->width) & (uint64_t)mask);
    size_t bytes = (size_t)self->width * sizeof(int32_t);
    while (self->used[i] && memcmp(self->keys + i * self->width, key, bytes) != 0) i = (i + 1) & mask;
    return i;
}

/* Double the table, moving every entry (their answers' references move with them). */
static int memo_grow(RuleMemo *self) {
    int32_t *keys = self->keys;
    uint8_t *used = self->used;
    PyObject **answers = self->answers;
    Py_ssize_t old = self->capacity, size = self->size;
    self->keys = NULL, self->used = NULL, self->answers = NULL;
    if (memo_alloc(self, old * 2) < 0) {
        self->keys = keys, self->used = used, self->answers = answers, self->capacity = old, self->size = size;
        return -1;
    }
    for (Py_ssize_t i = 0; i < old; i++) {
        if (!used[i]) continue;
        Py_ssize_t slot = memo_slot(self, keys + i * self->width);
        memcpy(self->keys + slot * self->width, keys + i * self->width, (size_t)self->width * sizeof(int32_t));
        self->used[slot] = 1;
        self->answers[slot] = answers[i];
    }
    self->size = size;
    PyMem_Free(keys);
    PyMem_Free(used);
    PyMem_Free(answers);
    return 0;
}

static PyObject *key_tuple(const int32_t *key, int width) {
    long wide[MEMO_MAX_WIDTH];
    for (int i = 0; i < width; i++) wide[i] = key[i];
    return tuple_of_ints(wide, width);
}

/* The answer to ``key`` (a borrowed reference), asking Python on a miss; NULL with an exception set when the
 * callback raises. What the native listing calls. */
static PyObject *memo_ask(RuleMemo *self, const int32_t *key) {
    Py_ssize_t slot = memo_slot(self, key);
    if (self->used[slot]) {
        self->hits++;
        return self->answers[slot];
    }
    self->misses++;
    PyObject *asked = key_tuple(key, self->width);
    if (asked == NULL) return NULL;
    PyObject *answer = PyObject_CallOneArg(self->callback, asked);
    Py_DECREF(asked);
    if (answer == NULL) return NULL;
    if (self->size >= self->limit) memo_empty(self);
    if (2 * (self->size + 1) > self->capacity && memo_grow(self) < 0) {
        Py_DECREF(answer);
        return NULL;
    }
    slot = memo_slot(self, key);
    memcpy(self->keys + slot * self->width, key, (size_t)self->width * sizeof(int32_t));
    self->used[slot] = 1;
    self->answers[slot] = answer;
    self->size++;
    return answer;
}

static int RuleMemo_init(RuleMemo *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"width", "callback", "limit", NULL};
    int width;
    PyObject *callback;
    Py_ssize_t limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOn", names, &width, &callback, &limit)) return -1;
    if (width < 0 || width > MEMO_MAX_WIDTH)
        return PyErr_Format(PyExc_ValueError, "native core: a memo's key is %d values, expected 0 to %d", width,
                            MEMO_MAX_WIDTH), -1;
    if (!PyCallable_Check(callback))
        return PyErr_SetString(PyExc_TypeError, "native core: a memo's callback must be callable"), -1;
    if (limit < 1) return PyErr_Format(PyExc_ValueError, "native core: a memo's limit is %zd, expected 1 or more", limit), -1;
    memo_free_table(self);
    Py_XSETREF(self->callback, Py_NewRef(callback));
    self->width = width;
    self->limit = limit;
    self->hits = self->misses = 0;
    self->has_recipe = 0;
    return memo_alloc(self, MEMO_FIRST_CAPACITY);
}

/* A key from Python: a sequence of ``width`` ints, each within int32. */
static int read_key(const RuleMemo *self, PyObject *seq, int32_t *key) {
    long values[MEMO_MAX_WIDTH];
    Py_ssize_t n = read_ints(seq, INT32_MIN, INT32_MAX, MEMO_MAX_WIDTH, "a memo key's value", values);
    if (n < 0) return -1;
    if (n != self->width) {
        PyErr_Format(PyExc_ValueError, "native core: a memo key of %zd values, expected %d", n, self->width);
        return -1;
    }
    for (int i = 0; i < self->width; i++) key[i] = (int32_t)values[i];
    return 0;
}

static PyObject *RuleMemo_ask(RuleMemo *self, PyObject *arg) {
    int32_t key[MEMO_MAX_WIDTH];
    if (self->used == NULL) return PyErr_Format(PyExc_RuntimeError, "native core: a memo not initialised");
    if (read_key(self, arg, key) < 0) return NULL;
    PyObject *answer = memo_ask(self, key);
    return answer == NULL ? NULL : Py_NewRef(answer);
}

/* Every key of a list asked in turn within C: the answers, in order (the lookups' cost without a call each). */
static PyObject *RuleMemo_ask_all(RuleMemo *self, PyObject *arg) {
    if (self->used == NULL) return PyErr_Format(PyExc_RuntimeError, "native core: a memo not initialised");
    PyObject *fast = PySequence_Fast(arg, "native core: ask_all takes a sequence of keys");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int32_t *keys = PyMem_Calloc((size_t)(n * self->width) + 1, sizeof(int32_t));
    PyObject *out = keys == NULL ? PyErr_NoMemory() : PyList_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++)
        if (read_key(self, PySequence_Fast_GET_ITEM(fast, i), keys + i * self->width) < 0) Py_CLEAR(out);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *answer = memo_ask(self, keys + i * self->width);
        if (answer == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, Py_NewRef(answer));
    }
    PyMem_Free(keys);
    Py_DECREF(fast);
    return out;
}

/* The recipe of natively built keys: one (source, place) pair per value of the key (``KEY_TABLE`` ...). */
static PyObject *RuleMemo_set_recipe(RuleMemo *self, PyObject *arg) {
    PyObject *fast = PySequence_Fast(arg, "native core: a recipe is a sequence of (source, place) pairs");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    uint8_t source[MEMO_MAX_WIDTH], place[MEMO_MAX_WIDTH];
    int failed = n != self->width;
    if (failed) PyErr_Format(PyExc_ValueError, "native core: a recipe of %zd values for keys of %d", n, self->width);
    for (Py_ssize_t i = 0; !failed && i < n; i++) {
        long pair[2];
        failed = read_ints(PySequence_Fast_GET_ITEM(fast, i), 0, MAX_KEY_ARGUMENTS, 2, "a recipe's pair", pair) != 2;
        if (!failed && (pair[0] >= KEY_SOURCES || pair[1] >= key_source_size[pair[0]])) {
            PyErr_Format(PyExc_ValueError, "native core: a recipe's pair (%ld, %ld) names no value", pair[0], pair[1]);
            failed = 1;
        } else if (failed && !PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "native core: a recipe's pair must be (source, place)");
        }
        if (!failed) source[i] = (uint8_t)pair[0], place[i] = (uint8_t)pair[1];
    }
    Py_DECREF(fast);
    if (failed) return NULL;
    memcpy(self->source, source, sizeof(source));
    memcpy(self->place, place, sizeof(place));
    self->has_recipe = 1;
    Py_RETURN_NONE;
}

static PyObject *RuleMemo_counts(RuleMemo *self, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("{s:L,s:L,s:n}", "hits", self->hits, "misses", self->misses, "size", self->size);
}

static PyObject *RuleMemo_clear(RuleMemo *self, PyObject *Py_UNUSED(ignored)) {
    if (self->used != NULL) memo_empty(self);
    self->hits = self->misses = 0;
    Py_RETURN_NONE;
}

static int RuleMemo_traverse(RuleMemo *self, visitproc visit, void *arg) {
    Py_VISIT(self->callback);
    for (Py_ssize_t i = 0; i < self->capacity; i++)
        if (self->used[i]) Py_VISIT(self->answers[i]);
    return 0;
}

static int RuleMemo_tp_clear(RuleMemo *self) {
    Py_CLEAR(self->callback);
    if (self->used != NULL) memo_empty(self);
    return 0;
}

static void RuleMemo_dealloc(RuleMemo *self) {
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->callback);
    memo_free_table(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef RuleMemo_methods[] = {
    {"ask", (PyCFunction)RuleMemo_ask, METH_O, "ask(key): the answer kept for key, asking the callback on a miss"},
    {"ask_all", (PyCFunction)RuleMemo_ask_all, METH_O, "ask_all(keys): each key asked in turn, the answers"},
    {"set_recipe", (PyCFunction)RuleMemo_set_recipe, METH_O, "set_recipe(pairs): how the core builds keys itself"},
    {"counts", (PyCFunction)RuleMemo_counts, METH_NOARGS, "Hits, misses and entries kept"},
    {"clear", (PyCFunction)RuleMemo_clear, METH_NOARGS, "Forget every answer and the counts"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RuleMemoType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "canasta_ref.core._core.RuleMemo",
    .tp_doc = PyDoc_STR("RuleMemo(width, callback, limit): a rule question's answers by encoded key (memo.py)"),
    .tp_basicsize = sizeof(RuleMemo),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)RuleMemo_init,
    .tp_dealloc = (destructor)RuleMemo_dealloc,
    .tp_traverse = (traverseproc)RuleMemo_traverse,
    .tp_clear = (inquiry)RuleMemo_tp_clear,
    .tp_methods = RuleMemo_methods,
};

/* -- the listing, built natively ------------------------------------------------------------------------- */

/* Ranks (bit r) of which any side has a canasta: ``discard.allowed``'s ``canasta_of_rank``. */
static uint32_t canasta_ranks(const Position *self) {
    const State *s = &self->state;
    uint32_t ranks = 0;
    for (int side = 0; side < self->sides; side++)
        for (int i = 0; i < s->meld_count[side]; i++) {
            const NativeMeld *meld = &s->melds[side][i];
            if (meld->size >= self->facts.canasta_size[meld->rank]) ranks |= 1u << meld->rank;
        }
    return ranks;
}

/* The values a key draws on for one card: the table's, the card's facts, the caller's. */
typedef struct {
    int32_t table[TABLE_WIDTH];
    int32_t card[CARD_KEY_VALUES];
    int32_t arguments[MAX_KEY_ARGUMENTS];
} KeyValues;

static void card_key_values(const Position *self, uint32_t canastas, int card, int32_t out[CARD_KEY_VALUES]) {
    const CardFacts *f = &self->facts;
    out[0] = f->rank[card];
    out[1] = f->is_wild[card];
    out[2] = card == JOKER;
    out[3] = f->is_red_three[card];
    out[4] = f->is_black_three[card];
    out[5] = (int32_t)(canastas >> f->rank[card] & 1u);
}

/* The key ``memo``'s recipe builds from ``values``, into ``key``. */
static void build_key(const RuleMemo *memo, const KeyValues *values, int32_t key[MEMO_MAX_WIDTH]) {
    const int32_t *sources[KEY_SOURCES] = {values->table, values->card, values->arguments};
    for (int i = 0; i < memo->width; i++) key[i] = sources[memo->source[i]][memo->place[i]];
}

/* A question asked natively: its memo and the values its key was built from. */
typedef struct {
    RuleMemo *memo;
    KeyValues values;
} AskedKey;

/* The questions a timed listing asks, recorded while ``keys`` is not NULL (``native/draw.c``'s timing), so that
 * their keys' building and look-ups are timed apart from the listing's own work: ``count`` of ``most`` kept,
 * ``lost`` where the table could not grow. */
static struct {
    AskedKey *keys;
    Py_ssize_t count, most;
    int lost;
} asked_keys;

static void record_asked(RuleMemo *memo, const KeyValues *values) {
    if (asked_keys.count == asked_keys.most) {
        AskedKey *more = PyMem_Realloc(asked_keys.keys, sizeof(AskedKey) * (size_t)(2 * asked_keys.most));
        if (more == NULL) {
            asked_keys.lost = 1;
            return;
        }
        asked_keys.keys = more, asked_keys.most *= 2;
    }
    asked_keys.keys[asked_keys.count++] = (AskedKey){memo, *values};
}

/* The answer of ``memo`` to the key its recipe builds from ``values`` (borrowed), or NULL with an exception. */
static PyObject *ask_built(RuleMemo *memo, const KeyValues *values) {
    int32_t key[MEMO_MAX_WIDTH];
    if (asked_keys.keys != NULL) record_asked(memo, values);
    build_key(memo, values, key);
    return memo_ask(memo, key);
}

static int check_recipe(PyObject *memo, const char *what) {
    if (!PyObject_TypeCheck(memo, &RuleMemoType) || !((RuleMemo *)memo)->has_recipe) {
        PyErr_Format(PyExc_TypeError, "native core: %s must be a RuleMemo with a recipe", what);
        return -1;
    }
    return 0;
}

/* The card types ``seat`` may discard, in card order, leaving ``hand_after`` cards to play: those hook
 * discard.allowed lets go (its memo answers None) and, where discard.preferred has clauses (``preferred`` not
 * None), of the best standing among them (its memo answers each card's standing), as the Python listing's
 * discards block keeps them. Whether a discard may be made at all stays the caller's. */
static Py_ssize_t collect_discards(Position *self, int seat, int hand_after, RuleMemo *allowed, RuleMemo *preferred,
                                   long chosen[CARD_TYPES]) {
    KeyValues values = {.arguments = {hand_after}};
    table_values_of(self, seat, values.table);
    uint32_t canastas = canasta_ranks(self);
    long standing[CARD_TYPES], best = LONG_MIN;
    Py_ssize_t n = 0;
    for (int card = 0; card < CARD_TYPES; card++) {
        if (!self->state.hands[seat][card]) continue;
        card_key_values(self, canastas, card, values.card);
        PyObject *answer = ask_built(allowed, &values);
        if (answer == NULL) return -1;
        if (answer != Py_None) continue;
        standing[n] = 0;
        if (preferred != NULL) {
            PyObject *stands = ask_built(preferred, &values);
            if (stands == NULL) return -1;
            standing[n] = PyLong_AsLong(stands);
            if (standing[n] == -1 && PyErr_Occurred()) return -1;
        }
        best = standing[n] > best ? standing[n] : best;
        chosen[n++] = card;
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (standing[i] == best) chosen[kept++] = chosen[i];
    return kept;
}

static int read_discard_memos(PyObject *allowed, PyObject *preferred, RuleMemo **allowed_out, RuleMemo **preferred_out) {
    if (check_recipe(allowed, "discard.allowed's memo") < 0 ||
        (preferred != Py_None && check_recipe(preferred, "discard.preferred's memo") < 0))
        return -1;
    *allowed_out = (RuleMemo *)allowed;
    *preferred_out = preferred == Py_None ? NULL : (RuleMemo *)preferred;
    return 0;
}

static PyObject *Position_discards(Position *self, PyObject *args) {
    int seat, hand_after;
    PyObject *allowed, *preferred;
    RuleMemo *allowed_memo, *preferred_memo;
    if (!PyArg_ParseTuple(args, "iiOO", &seat, &hand_after, &allowed, &preferred) || check_seat(self, seat) < 0 ||
        read_discard_memos(allowed, preferred, &allowed_memo, &preferred_memo) < 0)
        return NULL;
    long chosen[CARD_TYPES];
    Py_ssize_t n = collect_discards(self, seat, hand_after, allowed_memo, preferred_memo, chosen);
    return n < 0 ? NULL : tuple_of_ints(chosen, n);
}

/* The values ``meld.valid`` reads of the meld a shape makes, in ``core.listing.SHAPE_ARGUMENTS``' order. */
enum {
    SHAPE_RANK, SHAPE_SIZE, SHAPE_NATURALS, SHAPE_WILDS, SHAPE_JOKERS, SHAPE_NATURAL_RANKS, SHAPE_KIND, SHAPE_SUITS,
    SHAPE_CONSECUTIVE, SHAPE_LOWEST, SHAPE_IS_NEW, SHAPE_ADDED, SHAPE_ADDED_WILDS, SHAPE_WAS_CANASTA, SHAPE_GOING_OUT,
    SHAPE_INITIAL, SHAPE_OTHER_CANASTA, SHAPE_OTHER_NATURAL_CANASTA, SHAPE_WILD_MELD_OPEN, SHAPE_TAKE_ONTO_MELD,
    SHAPE_VALUES
};
/* Their names, as the module's SHAPE_VALUES: ``listing.py`` checks them against ``checks.MELD_VALID``. */
static const char *shape_value_names[SHAPE_VALUES] = {
    "rank", "size", "naturals", "wilds", "jokers", "natural_ranks", "kind", "suits", "consecutive", "lowest", "is_new",
    "added", "added_wilds", "was_canasta", "going_out", "initial", "other_canasta_of_rank",
    "other_natural_canasta_of_rank", "team_wild_meld_open", "take_onto_meld",
};

/* What the sides' canastas make of ``rank`` for ``side`` (``checks.RankFacts``): another side has a canasta of it,
 * a natural one, and ``side`` has a wild meld short of a canasta. */
static void rank_facts_of(const Position *self, int side, int rank, int32_t out[3]) {
    const State *s = &self->state;
    out[0] = out[1] = out[2] = 0;
    for (int other = 0; other < self->sides; other++)
        for (int i = 0; i < s->meld_count[other]; i++) {
            const NativeMeld *meld = &s->melds[other][i];
            int canasta = meld->size >= self->facts.canasta_size[meld->rank];
            if (!canasta && other == side && meld->rank == MELD_RANKS - 2) out[2] = 1;
            if (canasta && other != side && meld->rank == rank) {
                out[0] = 1;
                if (meld->wilds == 0) out[1] = 1;
            }
        }
}

/* How many different choices of ``size`` cards there are, for each size, among card types held ``counts[i]``
 * times (the product of (1 + x + ... + x^count) over the types): ``ways[size]``, sizes up to ``most``. */
static void choice_counts(const int *counts, int types, int most, long long *ways) {
    for (int k = 0; k <= most; k++) ways[k] = k == 0;
    for (int i = 0; i < types; i++)
        for (int k = most; k >= 1; k--)
            for (int c = 1; c <= counts[i] && c <= k; c++) ways[k] += ways[k - c];
}

/* The side's meld that cards of ``rank`` join (the first open one, where the rank merges: bit ``rank`` of
 * ``merging``), or NULL for a new meld. */
static const NativeMeld *merge_target(const Position *self, int side, int rank, long merging) {
    int index = merge_index(self, side, rank, merging);
    return index < 0 ? NULL : &self->state.melds[side][index];
}

/* A valid shape of one rank: its counts of natural cards, other wild cards and jokers, whether it is valid keeping
 * cards and going out, the kind of canasta it newly makes (-1: none), how many different groups of cards make it. */
typedef struct {
    int naturals, twos, jokers, staying, leaving, new_kind;
    long long ways;
} RankShape;

/* What the shapes of a rank are asked with: the memo of meld.valid, the ranks that merge (bit r), the codes of
 * meld.valid's ``kind`` words. */
typedef struct {
    RuleMemo *valid;
    long merging;
    int group_code, wild_code;
} ShapeQuestion;

/* The meld.valid values of a group of ``rank`` laid by ``seat`` that no shape changes (the table, the rank facts, the
 * meld it joins: ``*before``, NULL for a new meld), into ``values``. */
static void shape_values_start(const Position *self, int seat, int rank, int initial, const ShapeQuestion *q,
                               KeyValues *values, const NativeMeld **before) {
    int side = self->state.side_of[seat];
    *before = merge_target(self, side, rank, q->merging);
    table_values_of(self, seat, values->table);
    int32_t *a = values->arguments, facts[3];
    rank_facts_of(self, side, rank, facts);
    a[SHAPE_RANK] = a[SHAPE_LOWEST] = rank;
    a[SHAPE_KIND] = rank == MELD_RANKS - 2 ? q->wild_code : q->group_code;
    a[SHAPE_SUITS] = 0, a[SHAPE_CONSECUTIVE] = 1, a[SHAPE_TAKE_ONTO_MELD] = 0;
    a[SHAPE_IS_NEW] = *before == NULL;
    a[SHAPE_WAS_CANASTA] = *before != NULL && (*before)->size >= self->facts.canasta_size[rank];
    a[SHAPE_INITIAL] = initial;
    a[SHAPE_OTHER_CANASTA] = facts[0], a[SHAPE_OTHER_NATURAL_CANASTA] = facts[1], a[SHAPE_WILD_MELD_OPEN] = facts[2];
}

/* Hook meld.valid on one shape (``n`` natural cards, ``t`` other wild cards, ``j`` jokers) of the rank ``values``
 * was started for, kept and going out, into ``out`` (its ways left to the caller): 1 where either holds, 0 where
 * neither does, -1 with an exception. */
static int shape_judged(const Position *self, const ShapeQuestion *q, KeyValues *values, const NativeMeld *before,
                        int n, int t, int j, RankShape *out) {
    int32_t *a = values->arguments;
    int rank = a[SHAPE_RANK], added = n + t + j, size = added + (before ? before->size : 0);
    int meld_naturals = n + (before ? before->naturals : 0);
    a[SHAPE_SIZE] = size, a[SHAPE_NATURALS] = meld_naturals;
    a[SHAPE_WILDS] = t + j + (before ? before->wilds : 0);
    a[SHAPE_JOKERS] = j + (before ? before->jokers : 0);
    a[SHAPE_NATURAL_RANKS] = n > 0, a[SHAPE_ADDED] = added, a[SHAPE_ADDED_WILDS] = t + j;
    int verdict[2];
    for (int going_out = 0; going_out < 2; going_out++) {
        a[SHAPE_GOING_OUT] = going_out;
        PyObject *answer = ask_built(q->valid, values);
        if (answer == NULL) return -1;
        verdict[going_out] = answer == Py_None;
    }
    int new_kind = -1;
    if (!a[SHAPE_WAS_CANASTA] && size >= self->facts.canasta_size[rank])
        new_kind = size == meld_naturals ? 0 : meld_naturals == 0 ? 2 : 1;
    *out = (RankShape){n, t, j, verdict[0], verdict[1], new_kind, 0};
    return verdict[0] || verdict[1];
}

/* The shapes of one rank that make a valid meld for ``seat`` (``legal._rank_shapes``), into ``*out`` (allocated
 * with PyMem_Malloc, the caller frees it): for each count of its natural cards of ``rank``, of its other wild cards
 * and of its jokers, hook meld.valid asked keeping cards and going out. Returns how many, or -1 with an exception. */
static Py_ssize_t collect_rank_shapes(const Position *self, int seat, int rank, int initial, const ShapeQuestion *q,
                                      RankShape **out) {
    const State *s = &self->state;
    const CardFacts *f = &self->facts;
    int naturals[SUITS], natural_types = 0, twos[CARD_TYPES], two_types = 0;
    int available = 0, twos_total = 0, jokers = s->hands[seat][JOKER]; /* a joker is never natural */
    for (int c = 0; c < JOKER; c++) {
        int held = s->hands[seat][c];
        if (f->is_wild[c]) twos[two_types++] = held, twos_total += held;
        else if (f->rank[c] == rank && !f->is_bonus[c]) naturals[natural_types++] = held, available += held;
    }
    long long natural_ways[MAX_CARDS + 1], two_ways[MAX_CARDS + 1];
    choice_counts(naturals, natural_types, available, natural_ways);
    choice_counts(twos, two_types, twos_total, two_ways);
    KeyValues values;
    const NativeMeld *before;
    shape_values_start(self, seat, rank, initial, q, &values, &before);
    RankShape *found = PyMem_Malloc(sizeof(RankShape) * (size_t)((available + 1) * (twos_total + 1) * (jokers + 1)));
    if (found == NULL) return PyErr_NoMemory(), -1;
    Py_ssize_t count = 0;
    for (int n = 0; n <= available; n++)
        for (int t = 0; t <= twos_total; t++)
            for (int j = 0; j <= jokers; j++) {
                if (n + t + j == 0) continue;
                int valid = shape_judged(self, q, &values, before, n, t, j, &found[count]);
                if (valid < 0) {
                    PyMem_Free(found);
                    return -1;
                }
                if (valid) found[count++].ways = natural_ways[n] * two_ways[t];
            }
    *out = found;
    return count;
}

static int read_shape_question(PyObject *valid, long merging, int group_code, int wild_code, ShapeQuestion *q) {
    if (check_recipe(valid, "meld.valid's memo") < 0) return -1;
    *q = (ShapeQuestion){(RuleMemo *)valid, merging, group_code, wild_code};
    return 0;
}

/* ``collect_rank_shapes`` for Python: each valid shape as (naturals, wild cards, jokers, valid keeping cards,
 * valid going out, the kind of canasta it newly makes or -1, how many different groups of cards make it). */
static PyObject *Position_rank_shapes(Position *self, PyObject *args) {
    int seat, rank, initial, group_code, wild_code;
    long merging;
    PyObject *valid;
    ShapeQuestion q;
    if (!PyArg_ParseTuple(args, "iipOlii", &seat, &rank, &initial, &valid, &merging, &group_code, &wild_code) ||
        check_seat(self, seat) < 0 || read_shape_question(valid, merging, group_code, wild_code, &q) < 0)
        return NULL;
    if (rank < 0 || rank > MELD_RANKS - 2)
        return PyErr_Format(PyExc_ValueError, "native core: no rank %d of a group (0 to %d)", rank, MELD_RANKS - 2);
    RankShape *shapes;
    Py_ssize_t n = collect_rank_shapes(self, seat, rank, initial, &q, &shapes);
    if (n < 0) return NULL;
    PyObject *found = PyList_New(n);
    for (Py_ssize_t i = 0; found != NULL && i < n; i++) {
        const RankShape *r = &shapes[i];
        PyObject *shape = Py_BuildValue("(iiiNNiL)", r->naturals, r->twos, r->jokers, PyBool_FromLong(r->staying),
                                        PyBool_FromLong(r->leaving), r->new_kind, r->ways);
        if (shape == NULL) Py_CLEAR(found);
        else PyList_SET_ITEM(found, i, shape);
    }
    PyMem_Free(shapes);
    return found;
}

/* -- single melds of a side that has opened ------------------------------------------------------------------- */

/* The ranks a group could be laid in (``movegen.HandCards.meld_ranks``), as bits: the hand's natural ranks, the
 * side's melds' (sequences apart), and the wild meld's where the hand holds wild cards. */
static uint32_t meld_ranks_of(const Position *self, int seat) {
    const State *s = &self->state;
    const CardFacts *f = &self->facts;
    uint32_t bits = 0;
    int wilds = s->hands[seat][JOKER] > 0;
    for (int c = 0; c < JOKER; c++) {
        if (!s->hands[seat][c]) continue;
        if (f->is_wild[c]) wilds = 1;
        else if (!f->is_bonus[c]) bits |= 1u << f->rank[c];
    }
    int side = s->side_of[seat];
    for (int i = 0; i < s->meld_count[side]; i++)
        if (s->melds[side][i].rank != MELD_RANKS - 1) bits |= 1u << s->melds[side][i].rank;
    return wilds ? bits | 1u << (MELD_RANKS - 2) : bits;
}

/* A side's canastas by kind (natural, mixed, wild, sequence). */
static void side_kinds(const Position *self, int side, int kinds[4]) {
    kinds[0] = kinds[1] = kinds[2] = kinds[3] = 0;
    for (int i = 0; i < self->state.meld_count[side]; i++) {
        const NativeMeld *meld = &self->state.melds[side][i];
        if (meld->size >= self->facts.canasta_size[meld->rank])
            kinds[meld->rank == MELD_RANKS - 1 ? 3 : meld->wilds == 0 ? 0 : meld->naturals == 0 ? 2 : 1]++;
    }
}

/* How a turn may end: the memos of go_out.allowed and go_out.keep_card, and what they are asked with that the
 * position does not hold yet (the turn's flags, from the caller). */
typedef struct {
    RuleMemo *go_out, *keep_card;
    int permission_code, discard_pending, pass_refused;
    KeyValues out_values, keep_values;
} Ending;

/* Whether the side may go out with these canastas by kind (``checks.may_go_out``): go_out.allowed's memo. */
static int may_go_out_with(Ending *e, const int kinds[4]) {
    int32_t *a = e->out_values.arguments;
    a[0] = e->permission_code;
    a[1] = kinds[0] + kinds[1] + kinds[2] + kinds[3];
    for (int k = 0; k < 4; k++) a[2 + k] = kinds[k];
    a[6] = 0; /* melds to complete: variants with them are declined */
    PyObject *answer = ask_built(e->go_out, &e->out_values);
    return answer == NULL ? -1 : answer == Py_None;
}

/* Whether leaving ``hand_after`` cards ends the turn legally (``checks.ending_refusal``): going out allowed when
 * the hand empties, and go_out.keep_card's answer. */
static int ending_fine(Ending *e, int hand_after, const int kinds[4]) {
    int may = may_go_out_with(e, kinds);
    if (may < 0 || (hand_after == 0 && !may)) return may < 0 ? -1 : 0;
    int32_t *a = e->keep_values.arguments;
    a[0] = hand_after, a[1] = e->discard_pending, a[2] = may;
    PyObject *answer = ask_built(e->keep_card, &e->keep_values);
    return answer == NULL ? -1 : answer == Py_None;
}

/* Whether a shape leaving ``hand_after`` cards is laid legally (``legal._single_melds``): valid keeping cards, or
 * going out where it goes out, and ending the turn legally. -1 with an exception. */
static int single_meld_fine(Ending *e, const RankShape *shape, int hand_after, const int kinds[4]) {
    int going_out = hand_after == 0;
    if (hand_after == 1) {
        going_out = e->pass_refused ? 1 : may_go_out_with(e, kinds);
        if (going_out < 0) return -1;
    }
    if (!(going_out ? shape->leaving : shape->staying)) return 0;
    return ending_fine(e, hand_after, kinds);
}

/* The single-group melds of ``seat``'s side, which has opened: each legal shape of each rank it could meld, in
 * the Python listing's order, as (rank, naturals, wild cards, jokers, how many groups), ``held`` being the cards
 * the player has to play. Whether a meld may be made at all (the kind allowed, one group) is the caller's. */
/* Append ``seat``'s legal single melds to ``found`` as (rank, naturals, wild cards, jokers, groups); -1 on an error. */
static int collect_single_melds(const Position *self, int seat, int held, const ShapeQuestion *q, Ending *e,
                                PyObject *found) {
    int kinds[4];
    side_kinds(self, self->state.side_of[seat], kinds);
    uint32_t ranks = meld_ranks_of(self, seat);
    for (int rank = 0; rank <= MELD_RANKS - 2; rank++) {
        if (!(ranks >> rank & 1)) continue;
        RankShape *shapes;
        Py_ssize_t n = collect_rank_shapes(self, seat, rank, 0, q, &shapes);
        if (n < 0) return -1;
        int failed = 0;
        for (Py_ssize_t i = 0; !failed && i < n; i++) {
            int after[4] = {kinds[0], kinds[1], kinds[2], kinds[3]};
            if (shapes[i].new_kind >= 0) after[shapes[i].new_kind]++;
            int used = shapes[i].naturals + shapes[i].twos + shapes[i].jokers;
            int fine = single_meld_fine(e, &shapes[i], held - used, after);
            failed = fine < 0;
            if (fine <= 0) continue;
            PyObject *shape = Py_BuildValue("(iiiiL)", rank, shapes[i].naturals, shapes[i].twos, shapes[i].jokers,
                                            shapes[i].ways);
            failed = shape == NULL || PyList_Append(found, shape) < 0;
            Py_XDECREF(shape);
        }
        PyMem_Free(shapes);
        if (failed) return -1;
    }
    return 0;
}

/* ``ending``: (go_out.allowed's memo, go_out.keep_card's memo, the permission's code, a discard pending, passing
 * refused outright). */
static int read_ending(PyObject *ending, Ending *e) {
    PyObject *go_out, *keep_card;
    memset(e, 0, sizeof(*e));
    if (!PyArg_ParseTuple(ending, "OOipp", &go_out, &keep_card, &e->permission_code, &e->discard_pending,
                          &e->pass_refused) ||
        check_recipe(go_out, "go_out.allowed's memo") < 0 || check_recipe(keep_card, "go_out.keep_card's memo") < 0)
        return -1;
    e->go_out = (RuleMemo *)go_out, e->keep_card = (RuleMemo *)keep_card;
    return 0;
}

static PyObject *Position_single_melds(Position *self, PyObject *args) {
    int seat, held, group_code, wild_code;
    long merging;
    PyObject *valid, *ending;
    Ending e;
    ShapeQuestion q;
    if (!PyArg_ParseTuple(args, "iiOliiO!", &seat, &held, &valid, &merging, &group_code, &wild_code, &PyTuple_Type,
                          &ending) ||
        check_seat(self, seat) < 0 || read_shape_question(valid, merging, group_code, wild_code, &q) < 0 ||
        read_ending(ending, &e) < 0)
        return NULL;
    table_values_of(self, seat, e.out_values.table);
    PyObject *found = PyList_New(0);
    if (found != NULL && collect_single_melds(self, seat, held, &q, &e, found) < 0) Py_CLEAR(found);
    return found;
}

/* -- the whole listing of play, a side opened ----------------------------------------------------------------- */

/* The kinds of action the listing of play asks hook action.allowed about, in this order (``PLAY_KINDS``). */
enum { KIND_ASK, KIND_MELD, KIND_DISCARD, KIND_PASS, KIND_END, PLAY_KINDS };

/* The gates of the listing of play: their memos, the codes of their words as each gate's memo codes them (the
 * kinds; the phase by ``core.PHASES``; the permission by ``core.PERMISSIONS``), whether passing is refused
 * outright, and the turn's flags they read, from the core's position (``load_turn``). */
enum { GATE_ALLOWED, GATE_ASK, GATE_MELD_ACTION, GATE_PASS, GATES };
#define GATE_CODES (PLAY_KINDS + GATES * PHASES + 2 * PERMISSIONS + 1)
typedef struct {
    RuleMemo *allowed, *ask, *meld_action, *pass, *binding;
    int kind_codes[PLAY_KINDS], phase_codes[GATES][PHASES], out_permission[PERMISSIONS];
    int binding_permission[PERMISSIONS], pass_refused;
    int allowed_phase, ask_phase, meld_action_phase, pass_phase, permission_code, permission_yes;
    int last_card_bonus, melded_or_took, asked_this_turn, asked_this_hand, has_partner;
} PlayGates;

/* Exactly ``count`` codes of words into ``out`` (``what`` names them in a refusal); -1 with an exception. */
static int read_codes(PyObject *codes, Py_ssize_t count, const char *what, long *out) {
    Py_ssize_t n = read_ints(codes, INT32_MIN, INT32_MAX, count, what, out);
    if (n >= 0 && n != count)
        PyErr_Format(PyExc_ValueError, "native core: %zd %s, expected %zd", n, what, count);
    return n == count ? 0 : -1;
}

static int read_gates(PyObject *memos, PyObject *codes, PlayGates *g) {
    PyObject *m[5];
    if (!PyArg_ParseTuple(memos, "OOOOO", &m[0], &m[1], &m[2], &m[3], &m[4])) return -1;
    const char *names[5] = {"action.allowed's memo", "go_out.ask's memo", "meld.action's memo", "turn.pass's memo",
                            "go_out.answer_binding's memo"};
    for (int i = 0; i < 5; i++)
        if (check_recipe(m[i], names[i]) < 0) return -1;
    g->allowed = (RuleMemo *)m[0], g->ask = (RuleMemo *)m[1], g->meld_action = (RuleMemo *)m[2];
    g->pass = (RuleMemo *)m[3], g->binding = (RuleMemo *)m[4];
    long values[GATE_CODES];
    if (read_codes(codes, GATE_CODES, "gate codes", values) < 0) return -1;
    const long *v = values;
    for (int k = 0; k < PLAY_KINDS; k++) g->kind_codes[k] = (int)*v++;
    for (int gate = 0; gate < GATES; gate++)
        for (int phase = 0; phase < PHASES; phase++) g->phase_codes[gate][phase] = (int)*v++;
    for (int i = 0; i < PERMISSIONS; i++) g->out_permission[i] = (int)*v++;
    for (int i = 0; i < PERMISSIONS; i++) g->binding_permission[i] = (int)*v++;
    g->pass_refused = (int)*v;
    return 0;
}

/* The gates' flags for ``seat`` from the core's position, and how a turn may end (``Ending``) with them. */
static void gate_flags(const Position *self, int seat, PlayGates *g, Ending *e) {
    const Turn *t = &self->state.turn;
    g->allowed_phase = g->phase_codes[GATE_ALLOWED][t->phase];
    g->ask_phase = g->phase_codes[GATE_ASK][t->phase];
    g->meld_action_phase = g->phase_codes[GATE_MELD_ACTION][t->phase];
    g->pass_phase = g->phase_codes[GATE_PASS][t->phase];
    g->permission_code = g->binding_permission[t->permission];
    g->permission_yes = t->permission == 1; /* core.PERMISSIONS: none, yes, no */
    g->last_card_bonus = t->last_card_bonus;
    g->melded_or_took = t->melded || t->took;
    g->asked_this_turn = t->asked;
    g->asked_this_hand = (int)(t->asked_in_hand >> seat & 1u);
    g->has_partner = 0;
    for (int other = 0; other < self->players; other++)
        g->has_partner |= other != seat && self->state.side_of[other] == self->state.side_of[seat];
    e->permission_code = g->out_permission[t->permission];
    e->discard_pending = !t->last_card_bonus;
    e->pass_refused = g->pass_refused;
}

/* Whether a memo's answer is None (no clause refuses): 1, 0, or -1 with an exception. */
static int answer_is_none(RuleMemo *memo, const KeyValues *values) {
    PyObject *answer = ask_built(memo, values);
    return answer == NULL ? -1 : answer == Py_None;
}

/* Whether hook action.allowed lets ``seat`` (the seat to act, holding the cards) make an action of ``kind``. */
static int kind_allowed(const PlayGates *g, int seat, int kind) {
    KeyValues v = {.arguments = {g->kind_codes[kind], g->allowed_phase, seat, seat, 1, g->last_card_bonus}};
    return answer_is_none(g->allowed, &v);
}

/* The gates of the listing of play that read only the table and the turn's flags: asking, one group melded, a
 * pass; each 1, 0, or -1 with an exception. */
static int ask_allowed(const PlayGates *g, const int32_t table[TABLE_WIDTH], int seat) {
    int kind = kind_allowed(g, seat, KIND_ASK);
    if (kind <= 0) return kind;
    KeyValues v = {.arguments = {g->ask_phase, g->melded_or_took, g->asked_this_turn, g->asked_this_hand,
                                 g->has_partner}};
    memcpy(v.table, table, sizeof(v.table));
    return answer_is_none(g->ask, &v);
}

static int meld_allowed(const PlayGates *g, const int32_t table[TABLE_WIDTH], int seat) {
    int kind = kind_allowed(g, seat, KIND_MELD);
    if (kind <= 0) return kind;
    KeyValues v = {.arguments = {g->meld_action_phase, 1, 0, 0}};
    memcpy(v.table, table, sizeof(v.table));
    return answer_is_none(g->meld_action, &v);
}

static int pass_allowed(const PlayGates *g, Ending *e, const int32_t table[TABLE_WIDTH], int seat, const int kinds[4]) {
    if (e->pass_refused) return 0;
    int kind = kind_allowed(g, seat, KIND_PASS);
    if (kind <= 0) return kind;
    int may = may_go_out_with(e, kinds);
    if (may < 0) return -1;
    KeyValues v = {.arguments = {g->pass_phase, may, g->last_card_bonus}};
    memcpy(v.table, table, sizeof(v.table));
    return answer_is_none(g->pass, &v);
}

/* Whether a discard may be made at all (``legal._discards``' gates): the kind allowed, the turn ending legally
 * with it (no discard pending after it), no binding "yes" that still asks for a meld. */
static int discard_allowed(const PlayGates *g, Ending *e, int seat, int hand_after, const int kinds[4], int can_meld) {
    int kind = kind_allowed(g, seat, KIND_DISCARD);
    if (kind <= 0) return kind;
    int pending = e->discard_pending;
    e->discard_pending = 0;
    int fine = ending_fine(e, hand_after, kinds);
    e->discard_pending = pending;
    if (fine <= 0) return fine;
    KeyValues v = {.arguments = {g->permission_code, hand_after, g->permission_yes && hand_after > 0 && can_meld}};
    return answer_is_none(g->binding, &v);
}

/* -- the draw phase, a side opened ---------------------------------------------------------------------------- */

/* The values of ``pile.take`` besides the table's, in ``checks._PILE_TAKE``'s order (the module's TAKE_VALUES). */
enum {
    TAKE_PHASE, TAKE_FROZEN, TAKE_TOP_RANK, TAKE_TOP_IS_WILD, TAKE_TOP_IS_BLACK_THREE, TAKE_TOP_IS_RED_THREE,
    TAKE_HAS_MELD_OF_RANK, TAKE_MELD_IS_CANASTA, TAKE_MAY_GO_OUT, TAKE_TARGET, TAKE_TARGET_KIND,
    TAKE_TARGET_IS_CANASTA, TAKE_SEQUENCE, TAKE_CARDS, TAKE_NATURALS, TAKE_WILDS, TAKE_EXTRA_MELDS,
    TAKE_EXTRA_OF_TOP_RANK, TAKE_EXTRA_REPEATED_RANKS, TAKE_VALUES
};
static const char *take_value_names[TAKE_VALUES] = {
    "phase", "frozen", "top_rank", "top_is_wild", "top_is_black_three", "top_is_red_three", "team_has_meld_of_rank",
    "team_meld_is_canasta", "may_go_out", "take_target", "target_kind", "target_is_canasta", "take_sequence",
    "take_cards", "take_naturals", "take_wilds", "extra_melds", "extra_of_top_rank", "extra_repeated_ranks",
};

/* The questions of the draw phase: their memos (``pile.take_top_only`` and ``meld.take_apart`` NULL where the spec
 * has no clause there), and the codes of their words: action.allowed's kinds draw and take and its phases,
 * draw.allowed's and pile.take's phases, pile.take's target kinds (none, a group, wild cards) and its empty top
 * rank, whether pile.take reads may_go_out, go_out.allowed's permissions, whether passing is refused outright. */
enum { DRAW_ALLOWED, DRAW_DRAW, DRAW_TAKE, DRAW_FROZEN, DRAW_MUST_TAKE, DRAW_TOP_ONLY, DRAW_REPLACE, DRAW_APART,
       DRAW_MEMOS };
#define DRAW_CODES (2 + 3 * PHASES + 3 + 1 + 1 + PERMISSIONS + 1)
typedef struct {
    RuleMemo *memo[DRAW_MEMOS];
    int kind_draw, kind_take, phase_codes[3][PHASES], target_none, target_group, target_wild, empty_top;
    int reads_may_go_out, out_permission[PERMISSIONS], pass_refused;
} DrawQuestions;

static int read_draw_questions(PyObject *memos, PyObject *codes, DrawQuestions *d) {
    static const char *names[DRAW_MEMOS] = {
        "action.allowed's memo", "draw.allowed's memo", "pile.take's memo", "pile.frozen's memo",
        "stock_empty.must_take's memo", "pile.take_top_only's memo", "bonus_card.replace's memo",
        "meld.take_apart's memo"};
    PyObject *m[DRAW_MEMOS];
    if (!PyArg_ParseTuple(memos, "OOOOOOOO", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &m[6], &m[7])) return -1;
    for (int i = 0; i < DRAW_MEMOS; i++) {
        int optional = i == DRAW_TOP_ONLY || i == DRAW_APART;
        if (optional && m[i] == Py_None) d->memo[i] = NULL;
        else if (check_recipe(m[i], names[i]) < 0) return -1;
        else d->memo[i] = (RuleMemo *)m[i];
    }
    long values[DRAW_CODES];
    if (read_codes(codes, DRAW_CODES, "draw phase codes", values) < 0) return -1;
    const long *v = values;
    d->kind_draw = (int)*v++, d->kind_take = (int)*v++;
    for (int q = 0; q < 3; q++)
        for (int phase = 0; phase < PHASES; phase++) d->phase_codes[q][phase] = (int)*v++;
    d->target_none = (int)*v++, d->target_group = (int)*v++, d->target_wild = (int)*v++;
    d->empty_top = (int)*v++, d->reads_may_go_out = (int)*v++;
    for (int i = 0; i < PERMISSIONS; i++) d->out_permission[i] = (int)*v++;
    d->pass_refused = (int)*v;
    return 0;
}

/* -- what a variant binds once: the listing's context ------------------------------------------------------- */

/* What the listings of one variant ask with, bound once when its rules are (``listing.py``): the memos of the
 * questions, the codes of their words, whether passing is refused outright, and the discard actions by card type;
 * so that each listing call passes the position alone. ``bound`` keeps the objects the C fields point into. */
typedef struct {
    PyObject_HEAD
    PyObject *bound;
    ShapeQuestion shapes;
    Ending ending;
    int has_play, has_draw;
    PlayGates gates;
    RuleMemo *discard_allowed, *discard_preferred;
    PyObject *discards; /* a tuple of CARD_TYPES actions */
    DrawQuestions draw;
} ListingContext;

static PyTypeObject ListingContextType;

/* The play part: (gates' memos, gates' codes, discard.allowed's memo, discard.preferred's or None, the discard
 * actions by card type). */
static int read_play_part(PyObject *play, ListingContext *c) {
    PyObject *memos, *codes, *allowed, *preferred, *discards;
    if (!PyArg_ParseTuple(play, "O!OOOO!", &PyTuple_Type, &memos, &codes, &allowed, &preferred, &PyTuple_Type,
                          &discards) ||
        read_gates(memos, codes, &c->gates) < 0 ||
        read_discard_memos(allowed, preferred, &c->discard_allowed, &c->discard_preferred) < 0)
        return -1;
    if (PyTuple_GET_SIZE(discards) != CARD_TYPES) {
        PyErr_Format(PyExc_ValueError, "native core: %zd discard actions, expected %d", PyTuple_GET_SIZE(discards),
                     CARD_TYPES);
        return -1;
    }
    c->discards = discards;
    c->has_play = 1;
    return 0;
}

/* The draw part: (the draw phase's memos, its codes), as ``read_draw_questions`` reads them. */
static int read_draw_part(PyObject *draw, ListingContext *c) {
    PyObject *memos, *codes;
    if (!PyArg_ParseTuple(draw, "O!O", &PyTuple_Type, &memos, &codes) ||
        read_draw_questions(memos, codes, &c->draw) < 0)
        return -1;
    c->ending.pass_refused = c->draw.pass_refused;
    c->has_draw = 1;
    return 0;
}

static int ListingContext_init(ListingContext *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"valid", "merging", "group_code", "wild_code", "go_out", "keep_card", "play", "draw", NULL};
    int group_code, wild_code;
    long merging;
    PyObject *valid, *go_out, *keep_card, *play = Py_None, *draw = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OliiOO|OO", names, &valid, &merging, &group_code, &wild_code,
                                     &go_out, &keep_card, &play, &draw))
        return -1;
    PyObject *bound = Py_BuildValue("(OOOOO)", valid, go_out, keep_card, play, draw);
    if (bound == NULL) return -1;
    Py_XSETREF(self->bound, bound);
    self->has_play = self->has_draw = 0;
    memset(&self->ending, 0, sizeof(self->ending));
    if (read_shape_question(valid, merging, group_code, wild_code, &self->shapes) < 0 ||
        check_recipe(go_out, "go_out.allowed's memo") < 0 || check_recipe(keep_card, "go_out.keep_card's memo") < 0 ||
        (play != Py_None && read_play_part(play, self) < 0) || (draw != Py_None && read_draw_part(draw, self) < 0))
        return -1;
    self->ending.go_out = (RuleMemo *)go_out, self->ending.keep_card = (RuleMemo *)keep_card;
    return 0;
}

static int ListingContext_traverse(ListingContext *self, visitproc visit, void *arg) {
    Py_VISIT(self->bound);
    return 0;
}

static int ListingContext_tp_clear(ListingContext *self) {
    self->has_play = self->has_draw = 0; /* its memos go with ``bound`` */
    Py_CLEAR(self->bound);
    return 0;
}

static void ListingContext_dealloc(ListingContext *self) {
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->bound);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject ListingContextType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "canasta_ref.core._core.ListingContext",
    .tp_doc = PyDoc_STR("ListingContext(valid, merging, group_code, wild_code, go_out, keep_card, play=None, "
                        "draw=None): what a variant's listings ask with, bound once (listing.py)"),
    .tp_basicsize = sizeof(ListingContext),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)ListingContext_init,
    .tp_dealloc = (destructor)ListingContext_dealloc,
    .tp_traverse = (traverseproc)ListingContext_traverse,
    .tp_clear = (inquiry)ListingContext_tp_clear,
};

/* ``arg`` as a context bound with the parts a listing needs, or NULL with an exception naming what is missing. */
static const ListingContext *context_with(PyObject *arg, int play, int draw) {
    if (!PyObject_TypeCheck(arg, &ListingContextType)) {
        PyErr_SetString(PyExc_TypeError, "native core: a listing is asked with a ListingContext");
        return NULL;
    }
    const ListingContext *c = (const ListingContext *)arg;
    if (c->bound == NULL || (play && !c->has_play) || (draw && !c->has_draw)) {
        PyErr_Format(PyExc_ValueError, "native core: the ListingContext has no %s part",
                     c->bound == NULL ? "bound" : play ? "play" : "draw");
        return NULL;
    }
    return c;
}

/* The discard actions of the ``n`` card types ``chosen``, as a list (the context's own objects). */
static PyObject *discard_actions(const ListingContext *c, const long *chosen, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++)
        PyList_SET_ITEM(out, i, Py_NewRef(PyTuple_GET_ITEM(c->discards, chosen[i])));
    return out;
}

/* The listing of play once its melds are found (``melds``, a reference stolen; ``can_meld``: any meld action):
 * (may ask, the melds, the discard actions it may make, may pass, may end); NULL with an exception. */
static PyObject *play_listing_rest(Position *self, const ListingContext *c, PlayGates *g, Ending *e,
                                   const int32_t table[TABLE_WIDTH], int may_ask, PyObject *melds, int can_meld) {
    int seat = self->state.to_act, held = cards_held(self, seat), kinds[4];
    side_kinds(self, self->state.side_of[seat], kinds);
    long chosen[CARD_TYPES];
    Py_ssize_t discards = 0;
    int may_discard = discard_allowed(g, e, seat, held - 1, kinds, can_meld);
    if (may_discard > 0) discards = collect_discards(self, seat, held - 1, c->discard_allowed, c->discard_preferred,
                                                     chosen);
    int may_pass = may_discard < 0 || discards < 0 ? -1 : pass_allowed(g, e, table, seat, kinds);
    int may_end = may_pass < 0 ? -1 : kind_allowed(g, seat, KIND_END);
    if (may_end < 0) {
        Py_DECREF(melds);
        return NULL;
    }
    return Py_BuildValue("(ONNOO)", may_ask ? Py_True : Py_False, melds, discard_actions(c, chosen, discards),
                         may_pass ? Py_True : Py_False, may_end ? Py_True : Py_False);
}

/* The whole listing of the seat to act in play, its side opened (``legal.listing``), from the core's position
 * alone (its turn's flags included), with what its variant binds once in ``context`` (``ListingContext``): (may
 * ask, the single melds as ``single_melds`` gives them, the discard actions it may make, may pass, may end). */
static PyObject *Position_play_listing(Position *self, PyObject *arg) {
    const ListingContext *c = context_with(arg, 1, 0);
    if (c == NULL) return NULL;
    Ending e = c->ending;
    PlayGates g = c->gates;
    int seat = self->state.to_act, held = cards_held(self, seat);
    gate_flags(self, seat, &g, &e);
    int32_t table[TABLE_WIDTH];
    table_values_of(self, seat, table);
    memcpy(e.out_values.table, table, sizeof(table));
    int may_ask = ask_allowed(&g, table, seat), may_meld = may_ask < 0 ? -1 : meld_allowed(&g, table, seat);
    if (may_meld < 0) return NULL;
    PyObject *melds = PyList_New(0);
    if (melds == NULL || (may_meld && collect_single_melds(self, seat, held, &c->shapes, &e, melds) < 0)) {
        Py_XDECREF(melds);
        return NULL;
    }
    return play_listing_rest(self, c, &g, &e, table, may_ask, melds, PyList_GET_SIZE(melds) > 0);
}

/* A predicate's memo asked with ``values``: 1 (true), 0, or -1 with an exception; 0 where there is no memo. */
static int predicate_holds(RuleMemo *memo, const KeyValues *values) {
    if (memo == NULL) return 0;
    PyObject *answer = ask_built(memo, values);
    return answer == NULL ? -1 : PyObject_IsTrue(answer);
}

#include "native/openings.c" /* the openings of a side that has not opened */

#include "native/draw.c" /* the draw phase's listing */

/* -- the phases whose listing is a few bare kinds --------------------------------------------------------------- */

/* Whether hook action.allowed lets the seat to act make an action of each kind of ``kinds`` (codes in the memo's
 * vocabulary), holding the cards, in the phase the core's turn holds (``phases``: its code for each of
 * ``core.PHASES``): a tuple of bools, in order. What the listing of answering and of keeping a bonus card reads. */
static PyObject *Position_kinds_allowed(Position *self, PyObject *args) {
    PyObject *allowed, *phases, *kinds;
    if (!PyArg_ParseTuple(args, "OOO", &allowed, &phases, &kinds) || check_recipe(allowed, "action.allowed's memo") < 0)
        return NULL;
    long phase_codes[PHASES], kind_codes[PLAY_KINDS];
    Py_ssize_t n = read_ints(phases, INT32_MIN, INT32_MAX, PHASES, "a phase's code", phase_codes);
    if (n >= 0 && n != PHASES)
        return PyErr_Format(PyExc_ValueError, "native core: %zd phase codes, expected %d", n, PHASES);
    Py_ssize_t k = n < 0 ? -1 : read_ints(kinds, INT32_MIN, INT32_MAX, PLAY_KINDS, "a kind's code", kind_codes);
    if (k < 0) return NULL;
    const Turn *t = &self->state.turn;
    int seat = self->state.to_act;
    long answers[PLAY_KINDS];
    for (Py_ssize_t i = 0; i < k; i++) {
        KeyValues v = {.arguments = {(int32_t)kind_codes[i], (int32_t)phase_codes[t->phase], seat, seat, 1,
                                     t->last_card_bonus}};
        int ok = answer_is_none((RuleMemo *)allowed, &v);
        if (ok < 0) return NULL;
        answers[i] = ok;
    }
    PyObject *out = PyTuple_New(k);
    for (Py_ssize_t i = 0; out != NULL && i < k; i++) PyTuple_SET_ITEM(out, i, PyBool_FromLong(answers[i]));
    return out;
}

/* Where play stands: the phase (by ``core.PHASES``), the seat to act, and whether its side has opened. */
static PyObject *Position_where(Position *self, PyObject *Py_UNUSED(ignored)) {
    const State *s = &self->state;
    return Py_BuildValue("(iiO)", s->turn.phase, s->to_act, s->team_opened[s->side_of[s->to_act]] ? Py_True : Py_False);
}

#include "native/apply.c"
#include "native/takes.c" /* the takes of a side that has not opened */
#include "native/play.c" /* random play, a whole hand in C */

static PyMethodDef Position_methods[] = {
    {"load", (PyCFunction)Position_load, METH_VARARGS,
     "load(hands, stock, pile, melds, bonus, team_opened, side_of, to_act, feet, penalties): take a position"},
    {"export", (PyCFunction)Position_export, METH_NOARGS, "The position as a dict of plain values"},
    {"draw", (PyCFunction)Position_draw, METH_VARARGS, "draw(seat, count): the cards drawn from the stock's top"},
    {"discard", (PyCFunction)Position_discard, METH_VARARGS, "discard(seat, card): a card from hand onto the pile"},
    {"pass_turn", (PyCFunction)Position_pass_turn, METH_NOARGS, "pass_turn(): the next seat to act"},
    {"turn_to", (PyCFunction)Position_turn_to, METH_VARARGS, "turn_to(seat): that seat to act"},
    {"form_lone_hand", (PyCFunction)Position_form_lone_hand, METH_VARARGS,
     "form_lone_hand(lone, merging): the others join one side against the lone hand"},
    {"combine", (PyCFunction)Position_combine, METH_VARARGS, "combine(side, first, second, rank): two melds made one"},
    {"pick_up_foot", (PyCFunction)Position_pick_up_foot, METH_VARARGS, "pick_up_foot(seat): its foot into its hand"},
    {"penalise", (PyCFunction)Position_penalise, METH_VARARGS, "penalise(side, points): a side's penalties grow"},
    {"lift_top", (PyCFunction)Position_lift_top, METH_VARARGS, "lift_top(seat): the pile's top card alone into a hand"},
    {"lay", (PyCFunction)Position_lay, METH_VARARGS, "lay(seat, index, rank, cards): cards from hand on a meld"},
    {"close", (PyCFunction)Position_close, METH_VARARGS, "close(side, index): set a meld aside"},
    {"lay_out", (PyCFunction)Position_lay_out, METH_VARARGS, "lay_out(seat, card, count): bonus cards laid out"},
    {"pick_up", (PyCFunction)Position_pick_up, METH_VARARGS, "pick_up(seat, keep_top): the pile into a hand"},
    {"rank_counts", (PyCFunction)Position_rank_counts, METH_VARARGS, "rank_counts(seat): a hand's cards by rank"},
    {"held_types", (PyCFunction)Position_held_types, METH_VARARGS, "held_types(seat): the card types held"},
    {"side_facts", (PyCFunction)Position_side_facts, METH_VARARGS, "side_facts(side, anyone_out): score facts"},
    {"bonus_laid", (PyCFunction)Position_bonus_laid, METH_VARARGS, "bonus_laid(seat): its bonus cards laid out"},
    {"table_values", (PyCFunction)Position_table_values, METH_VARARGS, "table_values(seat): hooks.TABLE_VARIABLES"},
    {"discards", (PyCFunction)Position_discards, METH_VARARGS,
     "discards(seat, hand_after, allowed, preferred): the card types the discard hooks let go"},
    {"rank_shapes", (PyCFunction)Position_rank_shapes, METH_VARARGS,
     "rank_shapes(seat, rank, initial, valid, merging, group_code, wild_code): one rank's valid shapes"},
    {"single_melds", (PyCFunction)Position_single_melds, METH_VARARGS,
     "single_melds(seat, held, valid, merging, group_code, wild_code, ending): an opened side's legal single melds"},
    {"play_listing", (PyCFunction)Position_play_listing, METH_O,
     "play_listing(context): (may ask, the single melds, the discards, may pass, may end) of the seat to act"},
    {"opening_count", (PyCFunction)Position_opening_count, METH_VARARGS,
     "opening_count(context, questions, minimum): how many openings the seat to act may lay"},
    {"opening_listing", (PyCFunction)Position_opening_listing, METH_VARARGS,
     "opening_listing(context, questions, minimum): (may ask, the openings' count, the discards, may pass, may end)"},
    {"load_turn", (PyCFunction)Position_load_turn, METH_VARARGS,
     "load_turn(phase, permission, melded, asked, took, last_card_bonus, upcard_froze, asked_in_hand, owed[, asker, "
     "awaiting_first_turn])"},
    {"turn", (PyCFunction)Position_turn, METH_NOARGS, "The turn's flags, as load_turn takes them"},
    {"side_of", (PyCFunction)Position_side_of, METH_VARARGS, "side_of(seat): the seat's side"},
    {"pile", (PyCFunction)Position_pile, METH_NOARGS, "The pile's cards, its top last"},
    {"meld_sizes", (PyCFunction)Position_meld_sizes, METH_VARARGS, "meld_sizes(side): the sizes of its melds"},
    {"open_meld", (PyCFunction)Position_open_meld, METH_VARARGS,
     "open_meld(side, rank): (index, (size, naturals, wilds, jokers)) of its open meld of rank, or (-1, None)"},
    {"kinds_allowed", (PyCFunction)Position_kinds_allowed, METH_VARARGS,
     "kinds_allowed(allowed, phase_codes, kind_codes): action.allowed for each kind, the seat to act's"},
    {"draw_listing", (PyCFunction)Position_draw_listing, METH_O,
     "draw_listing(context): (may draw, the legal takes) of the seat to act, or None"},
    {"take_count", (PyCFunction)Position_take_count, METH_VARARGS,
     "take_count(context, questions, minimum, composition_from_hand): the draw phase's actions, a side not opened"},
    {"take_listing", (PyCFunction)Position_take_listing, METH_VARARGS,
     "take_listing(context, questions, minimum, composition_from_hand): the draw phase, a side not opened, kept"},
    {"time_draw_listing", (PyCFunction)Position_time_draw_listing, METH_VARARGS,
     "time_draw_listing(context, repeat, objects=False): (CPU seconds a listing in C, of them asking, of them "
     "building keys, asks)"},
    {"time_take_count", (PyCFunction)Position_time_take_count, METH_VARARGS,
     "time_take_count(arguments, repeat): take_count(*arguments) timed in C, as time_draw_listing times it"},
    {"where", (PyCFunction)Position_where, METH_NOARGS, "(phase, seat to act, its side opened)"},
    {"hand", (PyCFunction)Position_hand, METH_VARARGS, "hand([seat]): its cards (the seat to act's) by card type"},
    {"cards_held", (PyCFunction)Position_cards_held, METH_VARARGS,
     "cards_held(seat): the cards it has to play: its hand, its foot, the bonus cards it is owed"},
    {"snapshot", (PyCFunction)Position_snapshot, METH_NOARGS, "The position as bytes, for restore"},
    {"restore", (PyCFunction)Position_restore, METH_O, "restore(snapshot): go back to a snapshot"},
    {"seed", (PyCFunction)Position_seed, METH_O, "seed(n): random play's generator started from n"},
    {"below", (PyCFunction)Position_below, METH_O, "below(n): a number below n from random play's generator"},
    {"set_minimums", (PyCFunction)Position_set_minimums, METH_O,
     "set_minimums(rows): each seat's initial meld minimum by side (rows[seat][side]), or None"},
    {"encoded_opening", (PyCFunction)Position_encoded_opening, METH_VARARGS,
     "encoded_opening(kept, index): a listing's index-th kept opening, encoded as random play makes it"},
    {"play", (PyCFunction)Position_play, METH_VARARGS,
     "play(listing, apply, openings, answers, record, most): random play until the hand ends or Python must list"},
    {"bind_apply", (PyCFunction)Position_bind_apply, METH_VARARGS | METH_CLASS,
     "bind_apply(memos, draw_count, sequences, merging, permission_codes, trigger_codes, initial_sides): what a "
     "variant applies with, bound once"},
    {"apply", (PyCFunction)(void (*)(void))Position_apply, METH_FASTCALL,
     "apply(context, encoded): an action applied whole; the hand's end, or -1 declined with nothing moved"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PositionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "canasta_ref.core._core.Position",
    .tp_doc = PyDoc_STR("A hand's position as the native core holds it (see canasta_ref/core/README.md)"),
    .tp_basicsize = sizeof(Position),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Position_init,
    .tp_methods = Position_methods,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The native core of canasta-ref (see canasta_ref/core/README.md)", -1, opening_functions, NULL, NULL, NULL, NULL,
};

/* A tuple of ``count`` names added to ``module`` as ``attribute``: what ``listing.py`` checks its values against. */
static int add_names(PyObject *module, const char *attribute, const char *const *names, int count) {
    PyObject *tuple = PyTuple_New(count);
    for (int i = 0; tuple != NULL && i < count; i++) {
        PyObject *name = PyUnicode_FromString(names[i]);
        if (name == NULL) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, name);
    }
    if (tuple == NULL || PyModule_AddObject(module, attribute, tuple) < 0) {
        Py_XDECREF(tuple);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&PositionType) < 0 || PyType_Ready(&RuleMemoType) < 0 || PyType_Ready(&ListingContextType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) return NULL;
    if (PyModule_AddFunctions(module, take_functions) < 0 || PyModule_AddFunctions(module, play_functions) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&PositionType);
    if (PyModule_AddObject(module, "Position", (PyObject *)&PositionType) < 0) {
        Py_DECREF(&PositionType);
        Py_DECREF(module);
        return NULL;
    }
    if (add_names(module, "SHAPE_VALUES", shape_value_names, SHAPE_VALUES) < 0 ||
        add_names(module, "TAKE_VALUES", take_value_names, TAKE_VALUES) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "RuleMemo", (PyObject *)&RuleMemoType) < 0 ||
        PyModule_AddObjectRef(module, "ListingContext", (PyObject *)&ListingContextType) < 0 ||
        PyModule_AddIntConstant(module, "MAX_SEATS", MAX_SEATS) < 0 ||
        PyModule_AddIntConstant(module, "MAX_SIDES", MAX_SIDES) < 0 ||
        PyModule_AddIntConstant(module, "MAX_CARDS", MAX_CARDS) < 0 ||
        PyModule_AddIntConstant(module, "OPENING_MOST_TWOS", OPENING_MOST_TWOS) < 0 ||
        PyModule_AddIntConstant(module, "COUNT_BITS", COUNT_BITS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
