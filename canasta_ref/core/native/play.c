/* Random play in C (issue 40): from the core's position, list, choose uniformly by index with a seeded generator
 * held by the position, apply, and again, with no Python code between actions, until the hand ends or a position
 * the core does not list (``play.py`` lists that one with the Python engine and resumes the loop). Included by
 * ``_core.c`` after ``native/apply.c``, whose reading and applying of an encoded action it uses, and after the
 * listings (``draw_listing_into``, ``Position_play_listing``, ``Position_opening_listing``), whose answers it
 * counts and indexes: the chosen action is built by index in its encoded form (``apply.py``'s ``encode``), never as
 * a Python ``Action``. */

/* Why the loop stopped: the hand is over; the position is one the core does not list (Python lists it); the most
 * actions asked for were applied. */
enum { CHOSEN, STOP_OVER, STOP_PYTHON, STOP_MOST };

/* -- the generator: splitmix64, its state the position's own ------------------------------------------------- */

static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number below ``n`` (n > 0), each equally likely: draws past the last whole multiple of n are drawn again. */
static long long random_below(uint64_t *state, long long n) {
    uint64_t bound = (uint64_t)n, limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do x = next_random(state);
    while (x >= limit);
    return (long long)(x % bound);
}

/* Position.seed(n): the generator started again from ``n``: the same seed, the same choices. */
static PyObject *Position_seed(Position *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    self->random = seed;
    Py_RETURN_NONE;
}

/* A number below ``n`` (n > 0) of a count: below 2**63 as ``random_below`` draws it (so a hand played before draws
 * the same), past it from two draws made one 128-bit number, those past the last whole multiple of n drawn again.
 * A count of 64 bits (no 128-bit integers in the compiler) never passes 2**63. */
static Count random_count_below(uint64_t *state, Count n) {
    if (n <= (Count)LLONG_MAX) return random_below(state, (long long)n);
#ifdef __SIZEOF_INT128__
    unsigned __int128 bound = (unsigned __int128)n, most = ~(unsigned __int128)0, limit = most - most % bound, x;
    do x = (unsigned __int128)next_random(state) << 64 | next_random(state);
    while (x >= limit);
    return (Count)(x % bound);
#else
    return -1; /* not reached */
#endif
}

/* Position.below(n): a number below ``n`` from the position's generator, what the Python side chooses with: any
 * count the core holds (128 bits where the compiler has them: a 60-card hand's listings pass 64). */
static PyObject *Position_below(Position *self, PyObject *arg) {
    Count n;
    if (!PyLong_Check(arg)) return PyErr_Format(PyExc_TypeError, "native core: below takes an int, not %R", arg);
    if (count_from_python(arg, &n) < 0) return NULL;
    if (n <= 0) return PyErr_Format(PyExc_ValueError, "native core: a number below %S is asked for", arg);
    return count_to_python(random_count_below(&self->random, n));
}

/* Position.set_minimums(rows): each seat's initial meld minimum (hook initial_meld.minimum, asked by the caller
 * once a hand: it reads the scores and the hand's number, which do not change within it), by the side the seat
 * is on, rows[seat][side]; None forgets them (the openings are then left to Python). */
static PyObject *Position_set_minimums(Position *self, PyObject *arg) {
    self->has_minimums = 0;
    if (arg == Py_None) Py_RETURN_NONE;
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) != self->players)
        return PyErr_Format(PyExc_ValueError, "native core: minimums are a tuple of %d rows, one a seat", self->players);
    for (int seat = 0; seat < self->players; seat++) {
        long row[MAX_SIDES];
        Py_ssize_t n = read_ints(PyTuple_GET_ITEM(arg, seat), INT32_MIN, INT32_MAX, MAX_SIDES, "a minimum", row);
        if (n < 0) return NULL;
        if (n < self->sides)
            return PyErr_Format(PyExc_ValueError, "native core: seat %d's minimums name %zd sides, expected %d", seat,
                                n, self->sides);
        for (Py_ssize_t side = 0; side < n; side++) self->minimums[seat][side] = (int32_t)row[side];
    }
    self->has_minimums = 1;
    Py_RETURN_NONE;
}

/* -- the chosen action, encoded --------------------------------------------------------------------------------- */

/* The chosen action, encoded, and how many actions it was chosen among. */
typedef struct {
    long values[MAX_ENCODED];
    Py_ssize_t n;
    Count count;
} Chosen;

/* A bare action of ``kind`` (draw, ask, pass, end, a take of the top card alone). */
static void choose_bare(Chosen *out, int kind) {
    long bare[4] = {kind, 0, 0, 0};
    memcpy(out->values, bare, sizeof(bare));
    out->n = 4;
}

/* A take or a discard with ``n`` cards from hand. */
static void choose_with_cards(Chosen *out, int kind, const long *cards, int n) {
    long *v = out->values;
    v[0] = kind, v[1] = 0, v[2] = n;
    for (int i = 0; i < n; i++) v[3 + i] = cards[i];
    v[3 + n] = 0;
    out->n = 4 + n;
}

/* The ``index``-th choice of ``size`` cards among the card types ``cards`` held ``copies`` times, appended to
 * ``out`` at ``*at``: each type taken as many times as it can first, as ``movegen.submultisets`` orders them. */
static void choice_at(const int *cards, const int *copies, int types, int size, long long index, long *out, int *at) {
    for (int i = 0; i < types && size > 0; i++) {
        long long ways[MAX_COPIES + 1];
        choice_counts(copies + i + 1, types - i - 1, size, ways);
        for (int take = copies[i] < size ? copies[i] : size; take >= 0; take--) {
            if (index < ways[size - take]) {
                for (int k = 0; k < take; k++) out[(*at)++] = cards[i];
                size -= take;
                break;
            }
            index -= ways[size - take];
        }
    }
}

/* The card types ``hand`` holds of one kind: the natural cards of ``rank`` (neither wild nor bonus cards), or the
 * wild cards other than jokers (rank < 0); their copies into ``copies``. Returns how many types. */
static int pool_in(const CardFacts *f, const uint8_t *hand, int rank, int cards[CARD_TYPES], int copies[CARD_TYPES]) {
    int n = 0;
    for (int c = 0; c < CARD_TYPES; c++) {
        int held = hand[c];
        int fits = rank < 0 ? f->is_wild[c] && c != JOKER : !f->is_wild[c] && !f->is_bonus[c] && f->rank[c] == rank;
        if (held && fits) cards[n] = c, copies[n++] = held;
    }
    return n;
}

/* ``pool_in`` of the hand of ``seat``. */
static int pool_of(const Position *self, int seat, int rank, int cards[CARD_TYPES], int copies[CARD_TYPES]) {
    return pool_in(&self->facts, self->state.hands[seat], rank, cards, copies);
}

/* The ``index``-th group of a single meld's shape (rank, naturals, wild cards, jokers, groups) as a meld action;
 * -1 with an exception where the shape's count of groups is not the hand's. */
static int choose_meld(const Position *self, PyObject *shape, long long index, Chosen *out) {
    int rank, naturals, twos, jokers;
    long long ways;
    if (!PyArg_ParseTuple(shape, "iiiiL", &rank, &naturals, &twos, &jokers, &ways)) return -1;
    if (naturals < 0 || naturals > MAX_COPIES || twos < 0 || twos > MAX_COPIES || jokers < 0 || ways <= 0 ||
        naturals + twos + jokers > MAX_ENCODED - 8) /* the ways' tables, the divisor and the encoding bounded */
        return PyErr_Format(PyExc_ValueError, "native core: no meld shape of %d natural cards, %d wild cards, %d "
                            "jokers in %lld groups", naturals, twos, jokers, ways), -1;
    int seat = self->state.to_act, cards[CARD_TYPES], copies[CARD_TYPES], wild_cards[CARD_TYPES], wild_copies[CARD_TYPES];
    int types = pool_of(self, seat, rank, cards, copies), wild_types = pool_of(self, seat, -1, wild_cards, wild_copies);
    long long natural_ways[MAX_COPIES + 1], twos_ways[MAX_COPIES + 1];
    choice_counts(copies, types, naturals, natural_ways);
    choice_counts(wild_copies, wild_types, twos, twos_ways);
    if (natural_ways[naturals] * twos_ways[twos] != ways)
        return PyErr_Format(PyExc_ValueError, "native core: a meld shape of rank %d counts %lld groups, the hand %lld",
                            rank, ways, natural_ways[naturals] * twos_ways[twos]), -1;
    long *v = out->values;
    v[0] = DO_MELD, v[1] = 0, v[2] = 0, v[3] = 1;
    v[4] = naturals == 0 && rank != JOKER_MELD_RANK ? rank : -1, v[5] = 0, v[6] = naturals + twos + jokers;
    int at = 7;
    choice_at(cards, copies, types, naturals, index / twos_ways[twos], v, &at);
    choice_at(wild_cards, wild_copies, wild_types, twos, index % twos_ways[twos], v, &at);
    for (int k = 0; k < jokers; k++) v[at++] = JOKER;
    out->n = at;
    return 0;
}

/* -- an opening by its index: its groups share the hand's wild cards ------------------------------------------- */

/* One shape of an opening: its rank, its natural cards, other wild cards and jokers. */
typedef struct {
    int rank, naturals, twos, jokers;
} OpeningShape;

/* One opening's shapes (or a take's further melds), as its kept counting chose them, the hand they are made from
 * (a take's: the hand less its group), and its wild cards (jokers apart) they draw on. */
typedef struct {
    const CardFacts *facts;
    const uint8_t *hand;
    int n;
    OpeningShape shapes[MELD_RANKS];
    int wild_cards[CARD_TYPES], copies[CARD_TYPES], types;
} OpeningPool;

/* How many ways the hand's natural cards make ``s``'s. */
static long long natural_ways_of(const OpeningPool *p, const OpeningShape *s) {
    int cards[CARD_TYPES], copies[CARD_TYPES], types = pool_in(p->facts, p->hand, s->rank, cards, copies);
    long long ways[MAX_COPIES + 1];
    if (s->naturals > MAX_COPIES) return 0;
    choice_counts(copies, types, s->naturals, ways);
    return ways[s->naturals];
}

static Count tail_ways(OpeningPool *p, int shape);

/* The actions of the shapes from ``shape`` on, over every choice of ``shape``'s wild cards among the pool's types
 * from ``type`` on (``left`` still to pick): what ``movegen.expand_shapes`` makes, counted (in the core's count: a
 * choice's actions are at most the listing's, which its count holds). */
static Count twos_ways(OpeningPool *p, int shape, int type, int left) {
    if (left == 0) return tail_ways(p, shape + 1);
    if (type == p->types) return 0;
    Count total = 0;
    for (int take = p->copies[type] < left ? p->copies[type] : left; take >= 0; take--) {
        p->copies[type] -= take;
        total += twos_ways(p, shape, type + 1, left - take);
        p->copies[type] += take;
    }
    return total;
}

static Count tail_ways(OpeningPool *p, int shape) {
    if (shape == p->n) return 1;
    Count twos = twos_ways(p, shape, 0, p->shapes[shape].twos);
    return twos ? natural_ways_of(p, &p->shapes[shape]) * twos : 0;
}

static int opening_group_at(OpeningPool *p, int shape, Count index, long *v, int *at);

/* The wild cards of ``shape`` at ``*r`` among its choices (``picked``: those taken so far by type), appended with
 * its jokers, then the groups after it: 1 found, 0 not among these (``*r`` less their number), -1 an exception. */
static int twos_at(OpeningPool *p, int shape, int type, int left, Count *r, int *picked, long *v, int *at) {
    if (left == 0) {
        Count below = tail_ways(p, shape + 1);
        if (*r >= below) return *r -= below, 0;
        for (int i = 0; i < p->types; i++)
            for (int k = 0; k < picked[i]; k++) v[(*at)++] = p->wild_cards[i];
        for (int k = 0; k < p->shapes[shape].jokers; k++) v[(*at)++] = JOKER;
        return opening_group_at(p, shape + 1, *r, v, at) < 0 ? -1 : 1;
    }
    if (type == p->types) return 0;
    for (int take = p->copies[type] < left ? p->copies[type] : left; take >= 0; take--) {
        p->copies[type] -= take, picked[type] = take;
        int found = twos_at(p, shape, type + 1, left - take, r, picked, v, at);
        p->copies[type] += take, picked[type] = 0;
        if (found) return found;
    }
    return 0;
}

/* The groups from ``shape`` on of the ``index``-th action of the opening, appended encoded to ``v``. */
static int opening_group_at(OpeningPool *p, int shape, Count index, long *v, int *at) {
    if (shape == p->n) return 0;
    const OpeningShape *s = &p->shapes[shape];
    Count twos = twos_ways(p, shape, 0, s->twos);
    int size = s->naturals + s->twos + s->jokers;
    if (twos <= 0 || *at + 3 + size > MAX_ENCODED)
        return PyErr_SetString(PyExc_ValueError, "native core: an opening's group cannot be made from the hand"), -1;
    v[(*at)++] = s->naturals == 0 && s->rank != JOKER_MELD_RANK ? s->rank : -1, v[(*at)++] = 0, v[(*at)++] = size;
    int cards[CARD_TYPES], copies[CARD_TYPES], types = pool_in(p->facts, p->hand, s->rank, cards, copies);
    choice_at(cards, copies, types, s->naturals, (long long)(index / twos), v, at); /* below the natural ways */
    Count r = index % twos;
    int picked[CARD_TYPES] = {0};
    int found = twos_at(p, shape, 0, s->twos, &r, picked, v, at);
    if (found == 0) PyErr_SetString(PyExc_ValueError, "native core: an opening's wild cards run out");
    return found == 1 ? 0 : -1;
}

/* The groups of the choice of shapes ``chosen`` (an option per rank of ``oc``, -1 for none; in the order of its
 * ranks) at ``place`` among its actions, made from ``hand`` as ``movegen.expand_shapes`` makes them, appended
 * encoded to ``v`` from ``at`` (their number first): the encoding's length, or -1 with an exception. */
static int encode_chosen(const CardFacts *facts, const uint8_t *hand, const OpeningCount *oc, const int *chosen,
                         Count place, long *v, int at) {
    OpeningPool p = {.facts = facts, .hand = hand};
    for (int i = 0; i < oc->rank_count; i++) {
        if (chosen[i] < 0) continue;
        const OpeningOption *o = &oc->options[oc->first[i] + chosen[i]];
        p.shapes[p.n++] = (OpeningShape){oc->ranks[i], o->naturals, o->twos, o->jokers};
    }
    p.types = pool_in(facts, hand, -1, p.wild_cards, p.copies);
    if (place >= tail_ways(&p, 0))
        return PyErr_SetString(PyExc_ValueError, "native core: an opening's place is past its actions"), -1;
    v[at++] = p.n;
    return opening_group_at(&p, 0, place, v, &at) < 0 ? -1 : at;
}

/* The ``index``-th opening of a listing's ``kept`` openings as an encoded meld action, its groups in the order of
 * its shapes' ranks. */
static int choose_opening(const Position *self, PyObject *kept_capsule, Count index, Chosen *out) {
    KeptOpenings *kept = kept_openings_of(kept_capsule);
    if (kept == NULL) return -1;
    if (index < 0 || index >= kept->total) {
        PyObject *number = count_to_python(index < 0 ? 0 : index);
        if (number != NULL) index_past("opening", number, kept->total);
        Py_XDECREF(number);
        return -1;
    }
    int chosen[MELD_RANKS];
    int32_t start[OS_FIELDS];
    opening_first(&kept->oc, start);
    Count place = opening_descend(&kept->oc, start, index, chosen);
    if (place < 0) return -1;
    long *v = out->values;
    v[0] = DO_MELD, v[1] = 0, v[2] = 0;
    out->n = encode_chosen(&self->facts, self->state.hands[self->state.to_act], &kept->oc, chosen, place, v, 3);
    return out->n < 0 ? -1 : 0;
}

/* Position.encoded_opening(kept, index): the ``index``-th of a listing's kept openings (``opening_listing``) as the
 * loop encodes it, for the seat to act in the position listed: what a test compares with the reference's. */
static PyObject *Position_encoded_opening(Position *self, PyObject *args) {
    PyObject *kept, *number;
    Count index;
    Chosen chosen;
    if (!PyArg_ParseTuple(args, "OO!", &kept, &PyLong_Type, &number) || count_from_python(number, &index) < 0 ||
        choose_opening(self, kept, index, &chosen) < 0)
        return NULL;
    return tuple_of_ints(chosen.values, chosen.n);
}

/* -- choosing among a listing's answer -------------------------------------------------------------------------- */

/* The ``index``-th action of the draw phase's listing (``draw_listing_into``), drawing first. */
static void choose_in_draw(const DrawFound *found, long long index, Chosen *out) {
    if (found->may_draw) {
        if (index == 0) return choose_bare(out, DO_DRAW);
        index--;
    }
    long cards[2] = {found->cards[index][0], found->cards[index][1]};
    choose_with_cards(out, DO_TAKE, cards, found->sizes[index]);
}

/* The ``index``-th action of a listing's kept takes (a side that has not opened, ``takes.c``) in the reference's
 * order (``NativeTakeCount.of``): drawing, the top card alone, then each take group's actions in ``blocks.TakeGroups``
 * order, the group alone before it with further melds, those made from the hand less the group. 0, or -1 with an
 * exception. */
static int choose_in_takes(const Position *self, KeptTakes *kept, Count index, Chosen *out) {
    if (kept->may_draw) {
        if (index == 0) return choose_bare(out, DO_DRAW), 0;
        index--;
    }
    if (kept->top_alone) {
        if (index == 0) return choose_bare(out, DO_TAKE), 0;
        index--;
    }
    TakeGroupAt group;
    if (take_group_at(self, kept, index, &group) < 0) return -1;
    choose_with_cards(out, DO_TAKE, group.cards, group.n);
    Count within = group.within - group.shape->alone;
    if (within < 0) return 0; /* the group taken alone */
    uint8_t rest[CARD_TYPES];
    memcpy(rest, self->state.hands[kept->t.seat], sizeof(rest));
    for (int i = 0; i < group.n; i++) rest[group.cards[i]]--;
    TakeCount tc;
    int chosen[MELD_RANKS];
    Count place = take_extras_descend(kept, group.shape, within, &tc, chosen);
    if (place < 0) return -1;
    out->n = encode_chosen(&self->facts, rest, &tc.oc, chosen, place, out->values, 3 + group.n);
    return out->n < 0 ? -1 : 0;
}

static PyTypeObject PositionType; /* defined in ``_core.c``, after the mechanisms */

/* ``encoded_take(position, kept, index)`` (a module function): the ``index``-th action of a listing's kept takes
 * (``Position.take_listing``) as the loop encodes it, for the seat to act in ``position`` as listed: what a test
 * compares with the reference's. */
static PyObject *core_encoded_take(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *position, *capsule, *number;
    Count index;
    Chosen chosen;
    if (!PyArg_ParseTuple(args, "O!OO!", &PositionType, &position, &capsule, &PyLong_Type, &number) ||
        count_from_python(number, &index) < 0)
        return NULL;
    KeptTakes *kept = PyCapsule_GetPointer(capsule, KEPT_TAKES);
    if (kept == NULL) return NULL;
    if (index < 0 || index >= kept->total) return index_past("take", number, kept->total);
    if (choose_in_takes((Position *)position, kept, index, &chosen) < 0) return NULL;
    return tuple_of_ints(chosen.values, chosen.n);
}

/* How many meld actions a listing of play holds: its single melds' groups, or its openings' count (past 64 bits in
 * a big hand: the core's count, 128 bits where the compiler has them); -1 with an exception. */
static Count meld_block_count(PyObject *melds, int openings) {
    Count total = 0;
    if (openings) return count_from_python(PyTuple_GET_ITEM(melds, 0), &total) < 0 ? -1 : total;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(melds); i++)
        total += PyLong_AsLongLong(PyTuple_GET_ITEM(PyList_GET_ITEM(melds, i), 4));
    return total;
}

/* How many actions a listing of play holds (may ask, the meld block, the discard actions, may pass, may end); -1
 * with an exception. */
static Count play_count(PyObject *listing, int openings) {
    Count melds = meld_block_count(PyTuple_GET_ITEM(listing, 1), openings);
    if (melds < 0) return -1;
    return (PyTuple_GET_ITEM(listing, 0) == Py_True) + melds + PyList_GET_SIZE(PyTuple_GET_ITEM(listing, 2)) +
           (PyTuple_GET_ITEM(listing, 3) == Py_True) + (PyTuple_GET_ITEM(listing, 4) == Py_True);
}

/* The ``index``-th action of a listing of play, in the reference's order: asking, the melds (single, or openings),
 * the discards, passing, ending: 0, or -1 with an exception. */
static int choose_in_play(const Position *self, PyObject *listing, int openings, Count index, Chosen *out) {
    if (PyTuple_GET_ITEM(listing, 0) == Py_True) {
        if (index == 0) return choose_bare(out, DO_ASK), 0;
        index--;
    }
    PyObject *melds = PyTuple_GET_ITEM(listing, 1);
    Count in_melds = meld_block_count(melds, openings);
    if (index < in_melds) {
        if (openings) return choose_opening(self, PyTuple_GET_ITEM(melds, 1), index, out);
        for (Py_ssize_t i = 0;; i++) {
            PyObject *shape = PyList_GET_ITEM(melds, i);
            long long ways = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, 4));
            if (index < ways) return choose_meld(self, shape, (long long)index, out);
            index -= ways;
        }
    }
    index -= in_melds;
    PyObject *discards = PyTuple_GET_ITEM(listing, 2);
    if (index < PyList_GET_SIZE(discards)) {
        PyObject *cards = PyTuple_GET_ITEM(PyList_GET_ITEM(discards, (Py_ssize_t)index), 1); /* Action.cards */
        long card = PyLong_AsLong(PyTuple_GET_ITEM(cards, 0));
        return card == -1 && PyErr_Occurred() ? -1 : (choose_with_cards(out, DO_DISCARD, &card, 1), 0);
    }
    index -= PyList_GET_SIZE(discards);
    int may_pass = PyTuple_GET_ITEM(listing, 3) == Py_True;
    return choose_bare(out, may_pass && index == 0 ? DO_PASS : DO_END), 0;
}

/* -- the loop --------------------------------------------------------------------------------------------------- */

/* What one loop is asked with: the listing's and the apply's contexts, the openings' questions (NULL: openings
 * are Python's; ``questions``, the same read), the lists the chosen actions and their listings' counts are recorded
 * in (NULL: none), action.allowed's codes of the kinds yes and no (answering is Python's where ``has_answers`` is 0),
 * and hook initial_meld.composition_from_hand for the takes of a side that has not opened (-1: those are Python's). */
typedef struct {
    PyObject *listing;
    const ApplyContext *apply;
    PyObject *openings;
    OpeningQuestions questions;
    PyObject *record, *counts;
    int has_answers, answer_codes[2], takes_from_hand;
} Loop;

/* The answers hook action.allowed lets the seat to act give (yes, then no), as ``Position_kinds_allowed`` asks:
 * their number, each 1 in ``allowed``; -1 with an exception. */
static int answers_allowed(const Position *self, const Loop *loop, int allowed[2]) {
    const ListingContext *c = (const ListingContext *)loop->listing;
    const Turn *t = &self->state.turn;
    int seat = self->state.to_act, count = 0;
    for (int i = 0; i < 2; i++) {
        KeyValues v = {.arguments = {loop->answer_codes[i], c->gates.phase_codes[GATE_ALLOWED][t->phase], seat, seat,
                                     1, t->last_card_bonus}};
        allowed[i] = answer_is_none(c->gates.allowed, &v);
        if (allowed[i] < 0) return -1;
        count += allowed[i];
    }
    return count;
}

/* Answering "may I go out?": yes or no, as action.allowed lets; STOP_PYTHON where neither is. */
static int choose_answer(Position *self, const Loop *loop, Chosen *out) {
    int allowed[2], count = answers_allowed(self, loop, allowed);
    if (count <= 0) return count < 0 ? -1 : STOP_PYTHON;
    long long index = random_below(&self->random, count);
    choose_bare(out, allowed[0] && index == 0 ? DO_YES : DO_NO);
    out->count = count;
    return CHOSEN;
}

/* Whether the core counts the openings of the seat to act here: questions bound, the minimums loaded, and no more
 * wild cards (jokers apart) than the counting tracks. */
static int openings_counted(const Position *self, const Loop *loop) {
    if (loop->openings == NULL || !self->has_minimums) return 0;
    int seat = self->state.to_act, twos = 0;
    for (int c = 0; c < CARD_TYPES; c++)
        if (self->facts.is_wild[c] && c != JOKER) twos += self->state.hands[seat][c];
    return twos <= OPENING_MOST_TWOS;
}

/* The listing of the seat to act in play, its side not opened: ``opening_listing`` with its minimum. */
static PyObject *opening_listing_of(Position *self, const Loop *loop) {
    int seat = self->state.to_act;
    PyObject *args = Py_BuildValue("(OOi)", loop->listing, loop->openings,
                                   self->minimums[seat][self->state.side_of[seat]]);
    PyObject *found = args == NULL ? NULL : Position_opening_listing(self, args);
    Py_XDECREF(args);
    return found;
}

/* The loop's draw steps timed where ``draw_steps_timed`` asks (``tools/bench_core.py --draw``): by kind (the side
 * opened; not opened, taking nothing; not opened, with takes: counted with the opening and chosen in C where the
 * core counts them, ``choose_opening_take``, the step timed to its choice), how many, their seconds and the
 * misses of their memos (each a call into Python), and the same of the steps with no miss (the core's own work),
 * each step read on the monotonic clock; a step longer than ``DRAW_STEP_CUT`` seconds (the process interrupted, on
 * a busy machine) counted apart, not timed. Off, one test a step. */
#define DRAW_STEP_CUT 1e-3
enum { DRAW_STEP_OPENED, DRAW_STEP_TAKES_NONE, DRAW_STEP_WITH_TAKES, DRAW_STEP_KINDS };
static struct {
    int on;
    long long steps[DRAW_STEP_KINDS], misses[DRAW_STEP_KINDS], cut[DRAW_STEP_KINDS], unmissed[DRAW_STEP_KINDS];
    double seconds[DRAW_STEP_KINDS], unmissed_seconds[DRAW_STEP_KINDS];
} draw_steps;

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The misses of every memo the draw phase's listing asks, and the initial meld's where the loop counts takes. */
static long long draw_misses(const ListingContext *c, const Loop *loop) {
    long long misses = c->shapes.valid->misses + c->ending.go_out->misses + c->ending.keep_card->misses;
    for (int i = 0; i < DRAW_MEMOS; i++) misses += c->draw.memo[i] == NULL ? 0 : c->draw.memo[i]->misses;
    const OpeningQuestions *q = &loop->questions;
    if (loop->openings != NULL) misses += q->count->misses + q->valid->misses + q->concealed->misses;
    return misses;
}

/* A draw step of the seat to act, begun at ``start`` with ``misses`` memo misses so far, counted under its kind
 * (``listed``: ``draw_listing_into``'s answer). */
static void draw_step_timed(const Position *self, const Loop *loop, int listed, double start, long long misses) {
    const ListingContext *c = (const ListingContext *)loop->listing;
    double seconds = monotonic_seconds() - start;
    const State *s = &self->state;
    int kind = s->team_opened[s->side_of[s->to_act]] ? DRAW_STEP_OPENED
               : listed > 0                          ? DRAW_STEP_TAKES_NONE
                                                     : DRAW_STEP_WITH_TAKES;
    if (seconds > DRAW_STEP_CUT) {
        draw_steps.cut[kind]++;
        return;
    }
    long long missed = draw_misses(c, loop) - misses;
    draw_steps.steps[kind]++;
    draw_steps.seconds[kind] += seconds;
    draw_steps.misses[kind] += missed;
    if (missed == 0) draw_steps.unmissed[kind]++, draw_steps.unmissed_seconds[kind] += seconds;
}

/* ``draw_steps_timed(on)`` (a module function): the draw steps timed since the last call, as ((steps, seconds,
 * memo misses, steps cut, steps with no miss, their seconds) by kind: the side opened, not opened taking nothing,
 * not opened with takes (the draw listing declines them: counted and chosen in C, or handed to Python); the seconds
 * of one reading of the clock), the counts then cleared and the timing turned on or off. */
static PyObject *core_draw_steps_timed(PyObject *Py_UNUSED(module), PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    double start = monotonic_seconds(), reading = 0.0;
    for (int i = 0; i < 1000; i++) reading += monotonic_seconds() - start, start = monotonic_seconds();
    PyObject *kinds = PyTuple_New(DRAW_STEP_KINDS);
    for (int k = 0; kinds != NULL && k < DRAW_STEP_KINDS; k++) {
        PyObject *kind = Py_BuildValue("(LdLLLd)", draw_steps.steps[k], draw_steps.seconds[k], draw_steps.misses[k],
                                       draw_steps.cut[k], draw_steps.unmissed[k], draw_steps.unmissed_seconds[k]);
        if (kind == NULL) Py_CLEAR(kinds);
        else PyTuple_SET_ITEM(kinds, k, kind);
    }
    memset(&draw_steps, 0, sizeof(draw_steps));
    draw_steps.on = on;
    return kinds == NULL ? NULL : Py_BuildValue("(Nd)", kinds, reading / 1000);
}

/* The action of the seat to act in the draw phase, its side not opened and the pile one it may take, chosen into
 * ``out`` among its takes counted with the opening (``takes_prepare``, as ``NativeTakeCount.of`` lists them): CHOSEN;
 * STOP_PYTHON where the core does not count them (the takes not bound, no minimum, more wild cards than its
 * counting tracks), their count passes what it holds, or nothing is listed; -1 an exception. */
static int choose_opening_take(Position *self, const Loop *loop, Chosen *out) {
    if (loop->takes_from_hand < 0 || !openings_counted(self, loop)) return STOP_PYTHON;
    int seat = self->state.to_act;
    PyObject *args = Py_BuildValue("(OOii)", loop->listing, loop->openings,
                                   self->minimums[seat][self->state.side_of[seat]], loop->takes_from_hand);
    if (args == NULL) return -1;
    KeptTakes kept;
    memset(&kept, 0, sizeof(kept));
    int found = takes_prepare(self, args, &kept) < 0 ? -1 : STOP_PYTHON;
    Py_DECREF(args);
    if (found == STOP_PYTHON && kept.total > 0) {
        out->count = kept.total;
        found = choose_in_takes(self, &kept, random_count_below(&self->random, kept.total), out) < 0 ? -1 : CHOSEN;
    } else if (found < 0 && PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear(); /* more takes than the core's count holds: Python's */
        found = STOP_PYTHON;
    }
    kept_takes_release(&kept);
    return found;
}

/* Choose the action of the seat to act in the draw phase into ``out`` from its listing in C (no Python object), or
 * where a side not opened may take the pile, among its takes counted with the opening: CHOSEN, STOP_PYTHON where the
 * core lists none or nothing is listed, -1 an exception. */
static int choose_draw(Position *self, const Loop *loop, Chosen *out) {
    DrawFound found;
    const ListingContext *c = (const ListingContext *)loop->listing;
    long long misses = draw_steps.on ? draw_misses(c, loop) : 0;
    double start = draw_steps.on ? monotonic_seconds() : 0.0;
    int listed = draw_listing_into(self, c, &found), chose = STOP_PYTHON;
    if (listed < 0) return -1;
    long long count = listed > 0 ? found.may_draw + found.takes : 0;
    if (count > 0) {
        out->count = count;
        choose_in_draw(&found, random_below(&self->random, count), out);
        chose = CHOSEN;
    } else if (listed == 0) {
        chose = choose_opening_take(self, loop, out);
    }
    if (draw_steps.on && chose >= 0) draw_step_timed(self, loop, listed, start, misses);
    return chose;
}

/* Choose the action of the seat to act into ``out``: CHOSEN, a STOP_ reason where Python takes over, -1 an
 * exception. */
static int choose_action(Position *self, const Loop *loop, Chosen *out) {
    const State *s = &self->state;
    int phase = s->turn.phase, opened = s->team_opened[s->side_of[s->to_act]];
    if (phase == PHASE_OVER) return STOP_OVER;
    if (phase == PHASE_ANSWER && loop->has_answers) return choose_answer(self, loop, out);
    if (phase == PHASE_DRAW) return choose_draw(self, loop, out);
    if (phase != PHASE_PLAY) return STOP_PYTHON;
    if (!opened && !openings_counted(self, loop)) return STOP_PYTHON;
    PyObject *listing = opened ? Position_play_listing(self, loop->listing) : opening_listing_of(self, loop);
    if (listing == NULL && !opened && PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear(); /* more openings than the core's count holds (64 bits without 128-bit integers): Python's */
        return STOP_PYTHON;
    }
    if (listing == NULL) return -1;
    Count count = listing == Py_None ? 0 : play_count(listing, !opened);
    int found = PyErr_Occurred() ? -1 : STOP_PYTHON; /* None, or nothing listed: Python lists it, or refuses */
    if (count > 0 && found == STOP_PYTHON) {
        out->count = count;
        found = choose_in_play(self, listing, !opened, random_count_below(&self->random, count), out);
    }
    Py_DECREF(listing);
    return found;
}

/* Apply ``chosen`` in C, recording it where asked: the hand's end (ENDED_...), or -2 with an exception (the
 * listing offered an action the C entry declines: a fault of the core). */
static int apply_chosen(Position *self, const Loop *loop, const Chosen *chosen) {
    Encoded e;
    if (read_encoded(chosen->values, chosen->n, &e) < 0) return -2;
    if (loop->record != NULL) {
        PyObject *encoded = tuple_of_ints(chosen->values, chosen->n), *count = count_to_python(chosen->count);
        int failed = encoded == NULL || count == NULL || PyList_Append(loop->record, encoded) < 0 ||
                     PyList_Append(loop->counts, count) < 0;
        Py_XDECREF(encoded);
        Py_XDECREF(count);
        if (failed) return -2;
    }
    int ended = apply_encoded(self, loop->apply, &e);
    if (ended == DECLINED)
        PyErr_Format(PyExc_RuntimeError, "native core: the C entry declines an action its listing offered (kind %d)",
                     e.kind);
    return ended < ENDED_NOT ? -2 : ended;
}

/* Position.play(listing_context, apply_context, openings, answers, record, most, takes=None): random play from the
 * position until the hand ends, a position the core does not list, or ``most`` actions applied: (why it stopped, the
 * hand's end as ``apply`` gives it, the actions applied). ``openings``: the openings' questions
 * (``NativeOpeningCount.questions``) or None; ``answers``: action.allowed's codes of the kinds yes and no, or None;
 * ``record``: two lists, the encoded actions and the number of actions each was chosen among appended to them, or
 * None; ``takes``: hook initial_meld.composition_from_hand (``NativeTakeCount.from_hand``) where the loop chooses the
 * takes of a side that has not opened (with ``openings``), or None where Python does. */
static PyObject *Position_play(Position *self, PyObject *args) {
    PyObject *listing, *apply, *openings, *answers, *record, *takes = Py_None;
    long long most;
    if (!PyArg_ParseTuple(args, "OOOOOL|O", &listing, &apply, &openings, &answers, &record, &most, &takes))
        return NULL;
    if (context_with(listing, 1, 1) == NULL) return NULL;
    if (!PyCapsule_IsValid(apply, APPLY_CONTEXT))
        return PyErr_Format(PyExc_TypeError, "native core: play takes an ApplyContext from bind_apply");
    PyObject *actions = NULL, *counts = NULL;
    if (record != Py_None && !PyArg_ParseTuple(record, "O!O!", &PyList_Type, &actions, &PyList_Type, &counts))
        return NULL;
    Loop loop = {.listing = listing, .apply = PyCapsule_GetPointer(apply, APPLY_CONTEXT),
                 .openings = openings == Py_None ? NULL : openings, .record = actions, .counts = counts,
                 .takes_from_hand = -1};
    if (loop.openings != NULL && read_opening_questions(openings, &loop.questions) < 0) return NULL;
    if (takes != Py_None && (loop.takes_from_hand = PyObject_IsTrue(takes)) < 0) return NULL;
    if (answers != Py_None) {
        long codes[2];
        if (read_codes(answers, 2, "answer kind codes", codes) < 0) return NULL;
        loop.has_answers = 1, loop.answer_codes[0] = (int)codes[0], loop.answer_codes[1] = (int)codes[1];
    }
    int stop = STOP_MOST, ended = ENDED_NOT;
    long long applied = 0;
    while (applied < most) {
        Chosen chosen;
        int found = choose_action(self, &loop, &chosen);
        if (found < 0) return NULL;
        if (found != CHOSEN) {
            stop = found;
            break;
        }
        ended = apply_chosen(self, &loop, &chosen);
        if (ended < 0) return NULL;
        applied++;
    }
    return Py_BuildValue("(iiL)", stop, ended, applied);
}

/* The module's functions of random play (``_core.c``'s ``core_module``). */
static PyMethodDef play_functions[] = {
    {"encoded_take", (PyCFunction)core_encoded_take, METH_VARARGS,
     "encoded_take(position, kept, index): the index-th of a listing's kept takes, encoded as the loop makes it"},
    {"draw_steps_timed", (PyCFunction)core_draw_steps_timed, METH_O,
     "draw_steps_timed(on): ((steps, seconds, misses, cut, steps and seconds with no miss) by kind of the loop's "
     "draw steps, a clock reading's seconds)"},
    {NULL, NULL, 0, NULL},
};
