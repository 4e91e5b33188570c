/* The listing of the draw phase (``legal._draw_phase``), from the core's position alone: drawing, then the takes of
 * the pile of a side that has opened (the top card alone, then every pair of cards from hand that melds it), every
 * question through the memo with its key built in C. Included by ``../_core.c`` after ``openings.c``; ``takes.c``
 * (the takes of a side that has not opened) and ``play.c`` (random play) read its facts and its listing. */

/* Whether action.allowed lets the seat to act, holding the cards, make an action of ``kind`` in the draw phase. */
static int draw_kind_allowed(const Position *self, const DrawQuestions *d, int kind) {
    const Turn *t = &self->state.turn;
    int seat = self->state.to_act;
    KeyValues v = {.arguments = {kind, d->phase_codes[0][t->phase], seat, seat, 1, t->last_card_bonus}};
    return answer_is_none(d->memo[DRAW_ALLOWED], &v);
}

/* The kind of canasta a meld is (0 natural, 1 mixed, 2 wild), or -1 short of one. */
static int canasta_kind_of(const Position *self, int rank, int size, int naturals) {
    if (size < self->facts.canasta_size[rank]) return -1;
    return size == naturals ? 0 : naturals == 0 ? 2 : 1;
}

/* What a take is judged with, found once a position: the top card, the side's meld of its rank, the values of
 * pile.take that do not hang on the cards offered, and the cards taking the pile adds to the hand besides the
 * top card (``checks.pile_to_hand``). */
typedef struct {
    int seat, side, top, top_rank, held, gained, kinds[4];
    const NativeMeld *existing; /* the side's open meld of the top card's rank */
    KeyValues take;
    Ending *e;
} TakeFacts;

/* The pile's facts that the top-card hooks share (``checks._top_card_values``): the table, frozen, and whether the
 * top card fits the side's meld. */
static void top_card_key(const TakeFacts *t, const Position *self, KeyValues *v) {
    memcpy(v->table, t->take.table, sizeof(v->table));
    v->arguments[0] = t->take.arguments[TAKE_FROZEN];
    v->arguments[1] = !self->facts.is_wild[t->top] && t->existing != NULL;
}

/* What taking the pile puts in the hand besides the top card: none where only the top card moves (hook
 * pile.take_top_only), else the rest of the pile less its bonus cards, plus those the stock replaces (hook
 * bonus_card.replace). -1 with an exception. */
static int pile_gain(const Position *self, const DrawQuestions *d, const TakeFacts *t) {
    const State *s = &self->state;
    KeyValues v;
    top_card_key(t, self, &v);
    int top_only = predicate_holds(d->memo[DRAW_TOP_ONLY], &v);
    if (top_only != 0) return top_only < 0 ? -1 : 0;
    int bonus = 0;
    for (int i = 0; i < s->pile_len - 1; i++) bonus += self->facts.is_bonus[s->pile[i]];
    int replaced = 0;
    if (bonus) {
        KeyValues r = {.arguments = {1, s->stock_len}};
        int replace = predicate_holds(d->memo[DRAW_REPLACE], &r);
        if (replace < 0) return -1;
        replaced = replace ? (bonus < s->stock_len ? bonus : s->stock_len) : 0;
    }
    return s->pile_len - 1 - bonus + replaced;
}

/* The take facts of the seat to act, its pile not empty (what the pile adds to the hand apart: ``pile_gain``); -1
 * with an exception. */
static int take_facts_of(const Position *self, const DrawQuestions *d, const ShapeQuestion *q, Ending *e,
                         TakeFacts *t) {
    const State *s = &self->state;
    const CardFacts *f = &self->facts;
    t->seat = s->to_act, t->side = s->side_of[t->seat], t->e = e;
    t->top = s->pile[s->pile_len - 1], t->top_rank = f->rank[t->top];
    t->held = cards_held(self, t->seat);
    side_kinds(self, t->side, t->kinds);
    t->existing = merge_target(self, t->side, t->top_rank, (1L << MELD_RANKS) - 1); /* its rank's, merging or not */
    const NativeMeld *joined = merge_target(self, t->side, t->top_rank, q->merging);
    int32_t *a = t->take.arguments;
    table_values_of(self, t->seat, t->take.table);
    KeyValues frozen = {.arguments = {s->pile_wilds > 0, s->pile_red_threes > 0, s->pile_black_threes > 0,
                                      s->turn.upcard_froze}};
    memcpy(frozen.table, t->take.table, sizeof(frozen.table));
    a[TAKE_FROZEN] = predicate_holds(d->memo[DRAW_FROZEN], &frozen);
    if (a[TAKE_FROZEN] < 0) return -1;
    a[TAKE_PHASE] = d->phase_codes[2][s->turn.phase];
    a[TAKE_TOP_RANK] = t->top_rank, a[TAKE_TOP_IS_WILD] = f->is_wild[t->top];
    a[TAKE_TOP_IS_BLACK_THREE] = f->is_black_three[t->top], a[TAKE_TOP_IS_RED_THREE] = f->is_red_three[t->top];
    a[TAKE_HAS_MELD_OF_RANK] = t->existing != NULL;
    a[TAKE_MELD_IS_CANASTA] = t->existing != NULL && t->existing->size >= f->canasta_size[t->existing->rank];
    a[TAKE_MAY_GO_OUT] = d->reads_may_go_out ? may_go_out_with(e, t->kinds) : 0;
    if (a[TAKE_MAY_GO_OUT] < 0) return -1;
    a[TAKE_TARGET] = 0, a[TAKE_SEQUENCE] = 0;
    a[TAKE_TARGET_KIND] = joined == NULL ? d->target_none
                          : joined->rank == MELD_RANKS - 2 ? d->target_wild : d->target_group;
    a[TAKE_TARGET_IS_CANASTA] = joined != NULL && joined->size >= f->canasta_size[joined->rank];
    a[TAKE_EXTRA_MELDS] = a[TAKE_EXTRA_OF_TOP_RANK] = a[TAKE_EXTRA_REPEATED_RANKS] = 0;
    return 0;
}

/* The meld the top card and ``cards`` from hand join (``checks._merge_place`` of a take): the side's meld of its
 * rank where the rank merges, unless hook meld.take_apart keeps them apart; NULL for a new meld. */
static int take_target(const Position *self, const DrawQuestions *d, const ShapeQuestion *q, const TakeFacts *t,
                       int added_wilds, const NativeMeld **before) {
    *before = merge_target(self, t->side, t->top_rank, q->merging);
    if (*before == NULL || d->memo[DRAW_APART] == NULL) return 0;
    const NativeMeld *meld = *before;
    KeyValues v = {.arguments = {meld->rank, meld->size >= self->facts.canasta_size[meld->rank], meld->wilds,
                                 added_wilds}};
    int apart = predicate_holds(d->memo[DRAW_APART], &v);
    if (apart > 0) *before = NULL;
    return apart < 0 ? -1 : 0;
}

/* What a take's verdict reads of its ``n`` cards from hand: their number, the natural cards of the top card's rank,
 * the wild cards, the jokers among them. */
typedef struct {
    int n, naturals, wilds, jokers;
} TakeCards;

static TakeCards take_cards_of(const Position *self, const TakeFacts *t, const int *cards, int n) {
    const CardFacts *f = &self->facts;
    TakeCards c = {n, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        c.wilds += f->is_wild[cards[i]], c.jokers += cards[i] == JOKER;
        c.naturals += !f->is_wild[cards[i]] && f->rank[cards[i]] == t->top_rank;
    }
    return c;
}

/* Whether the take of the pile with cards from hand counted ``c`` is legal for a side that has opened
 * (``legal._take_verdict`` and ``checks._plan_take``): pile.take, the kind allowed, the meld it makes valid
 * (hook meld.valid, going out where it goes out) and the turn ending legally. 1, 0, or -1 with an exception. */
static int take_fine(const Position *self, const DrawQuestions *d, const ShapeQuestion *q, TakeFacts *t,
                     const TakeCards *c) {
    const CardFacts *f = &self->facts;
    int n = c->n, naturals = c->naturals, wilds = c->wilds, jokers = c->jokers;
    int32_t *a = t->take.arguments;
    a[TAKE_CARDS] = n, a[TAKE_NATURALS] = naturals, a[TAKE_WILDS] = wilds;
    int ok = answer_is_none(d->memo[DRAW_TAKE], &t->take);
    if (ok <= 0) return ok;
    ok = draw_kind_allowed(self, d, d->kind_take);
    if (ok <= 0) return ok;
    int top_wild = f->is_wild[t->top], added_wilds = wilds + top_wild;
    const NativeMeld *before;
    if (take_target(self, d, q, t, added_wilds, &before) < 0) return -1;
    int size = n + 1 + (before ? before->size : 0);
    int meld_naturals = n - wilds + !top_wild + (before ? before->naturals : 0);
    int meld_wilds = added_wilds + (before ? before->wilds : 0);
    int after[4] = {t->kinds[0], t->kinds[1], t->kinds[2], t->kinds[3]};
    int was = before ? canasta_kind_of(self, before->rank, before->size, before->naturals) : -1;
    int now = canasta_kind_of(self, t->top_rank, size, meld_naturals);
    if (was >= 0) after[was]--;
    if (now >= 0) after[now]++;
    int hand_after = t->held - n + t->gained, going_out = hand_after == 0;
    if (hand_after == 1) going_out = t->e->pass_refused ? 1 : may_go_out_with(t->e, after);
    if (going_out < 0) return -1;
    KeyValues v;
    memcpy(v.table, t->take.table, sizeof(v.table));
    int32_t *m = v.arguments, facts[3];
    rank_facts_of(self, t->side, t->top_rank, facts);
    m[SHAPE_RANK] = m[SHAPE_LOWEST] = t->top_rank;
    m[SHAPE_SIZE] = size, m[SHAPE_NATURALS] = meld_naturals, m[SHAPE_WILDS] = meld_wilds;
    m[SHAPE_JOKERS] = jokers + (t->top == JOKER) + (before ? before->jokers : 0);
    m[SHAPE_NATURAL_RANKS] = 1, m[SHAPE_KIND] = t->top_rank == MELD_RANKS - 2 ? q->wild_code : q->group_code;
    m[SHAPE_SUITS] = 0, m[SHAPE_CONSECUTIVE] = 1, m[SHAPE_IS_NEW] = before == NULL, m[SHAPE_ADDED] = n + 1;
    m[SHAPE_ADDED_WILDS] = added_wilds, m[SHAPE_WAS_CANASTA] = was >= 0, m[SHAPE_GOING_OUT] = going_out;
    m[SHAPE_INITIAL] = 0, m[SHAPE_OTHER_CANASTA] = facts[0], m[SHAPE_OTHER_NATURAL_CANASTA] = facts[1];
    m[SHAPE_WILD_MELD_OPEN] = facts[2], m[SHAPE_TAKE_ONTO_MELD] = before != NULL;
    ok = answer_is_none(q->valid, &v);
    return ok <= 0 ? ok : ending_fine(t->e, hand_after, after);
}

/* The cards held that can meld the top card (``movegen.take_pool``): its rank's natural cards, then the wild
 * cards, each in card order. Returns how many card types. */
static int take_pool_of(const Position *self, const TakeFacts *t, int pool[CARD_TYPES]) {
    const CardFacts *f = &self->facts;
    const uint8_t *hand = self->state.hands[t->seat];
    int n = 0;
    for (int wild = 0; wild < 2; wild++)
        for (int c = 0; c < CARD_TYPES; c++) {
            if (!hand[c] || f->is_wild[c] != wild) continue;
            if (wild || (!f->is_wild[t->top] && f->rank[c] == t->top_rank && !f->is_bonus[c])) pool[n++] = c;
        }
    return n;
}

/* Whether pile.take lets a side that has not opened take the pile with any group its pool could make
 * (``movegen.take_groups`` before an opening: the top card alone, every pair, every larger group with a natural
 * card), asked once per count of cards, naturals and wild cards, the counts it reads: 1 if any, 0 if none, -1
 * with an exception. Where none is, the draw phase lists no take, and the core lists it whole. */
static int any_opening_take(const Position *self, const DrawQuestions *d, TakeFacts *t) {
    int pool[CARD_TYPES], types = take_pool_of(self, t, pool), naturals = 0, wilds = 0;
    for (int i = 0; i < types; i++) {
        int held = self->state.hands[t->seat][pool[i]];
        if (self->facts.is_wild[pool[i]]) wilds += held;
        else naturals += held;
    }
    int32_t *a = t->take.arguments;
    for (int size = 0; size <= naturals + wilds; size++)
        for (int n = size > 2; size != 1 && n <= naturals && n <= size; n++) {
            if (size - n > wilds) continue;
            a[TAKE_CARDS] = size, a[TAKE_NATURALS] = n, a[TAKE_WILDS] = size - n;
            int allowed = answer_is_none(d->memo[DRAW_TAKE], &t->take);
            if (allowed != 0) return allowed;
        }
    return 0;
}

/* The most takes a draw phase lists: the top card alone, then a pair of every two card types of the pool. */
#define MOST_DRAW_TAKES (1 + CARD_TYPES * (CARD_TYPES + 1) / 2)

/* A draw phase's listing as C data, what random play chooses from without a Python object: whether the seat to act
 * may draw, and its legal takes in the reference's order, each the cards from hand (none: the top card alone). */
typedef struct {
    int may_draw, takes;
    uint8_t sizes[MOST_DRAW_TAKES], cards[MOST_DRAW_TAKES][2];
} DrawFound;

/* Append a take with ``cards`` (``n``, at most 2) to ``found``. */
static void found_take(DrawFound *found, const int *cards, int n) {
    int at = found->takes++;
    found->sizes[at] = (uint8_t)n;
    for (int i = 0; i < n; i++) found->cards[at][i] = (uint8_t)cards[i];
}

/* The legal takes of a side that has opened into ``found``, in the reference's order: the top card alone, then
 * every pair of cards from the pool (``movegen._pairs``). A pair's verdict reads only its counts (``TakeCards``),
 * so each count of natural cards and jokers in a pair is judged once a listing. Sets ``*alone`` to whether the
 * first is legal. */
static int collect_takes(const Position *self, const DrawQuestions *d, const ShapeQuestion *q, TakeFacts *t,
                         DrawFound *found, int *alone) {
    TakeCards none = {0, 0, 0, 0};
    *alone = take_fine(self, d, q, t, &none);
    if (*alone < 0) return -1;
    if (*alone) found_take(found, NULL, 0);
    int pool[CARD_TYPES], types = take_pool_of(self, t, pool);
    int8_t judged[3][3]; /* a pair's verdict by its natural cards and its jokers; -1 not judged yet */
    memset(judged, -1, sizeof(judged));
    for (int i = 0; i < types; i++)
        for (int j = i; j < types; j++) {
            if (j == i && self->state.hands[t->seat][pool[i]] < 2) continue;
            int pair[2] = {pool[i], pool[j]};
            TakeCards counts = take_cards_of(self, t, pair, 2);
            int8_t *verdict = &judged[counts.naturals][counts.jokers];
            if (*verdict < 0) {
                int fine = take_fine(self, d, q, t, &counts);
                if (fine < 0) return -1;
                *verdict = (int8_t)fine;
            }
            if (*verdict) found_take(found, pair, 2);
        }
    return 0;
}

/* Whether the seat to act may draw from the stock (``checks.bare_refusal`` of a draw): the kind allowed, and hook
 * draw.allowed, told whether an empty stock obliges it to take the pile (hook stock_empty.must_take, and the take
 * of the top card alone legal). */
static int draw_allowed(const Position *self, const DrawQuestions *d, const TakeFacts *t, int take_alone) {
    int ok = draw_kind_allowed(self, d, d->kind_draw);
    if (ok <= 0) return ok;
    const State *s = &self->state;
    int must_take = 0;
    if (s->stock_len == 0 && s->pile_len > 0 && take_alone) {
        KeyValues m;
        top_card_key(t, self, &m);
        must_take = predicate_holds(d->memo[DRAW_MUST_TAKE], &m);
        if (must_take < 0) return -1;
    }
    KeyValues v = {.arguments = {d->phase_codes[1][s->turn.phase], must_take}};
    table_values_of(self, s->to_act, v.table);
    return answer_is_none(d->memo[DRAW_DRAW], &v);
}

/* Whether a take of an empty pile is refused (by pile.take, or by action.allowed), as the reference needs (it
 * never plans one): 0 when it is, -1 with an exception otherwise. */
static int empty_pile_refused(const Position *self, const DrawQuestions *d, Ending *e) {
    const State *s = &self->state;
    KeyValues v;
    memset(&v, 0, sizeof(v));
    table_values_of(self, s->to_act, v.table);
    int kinds[4];
    side_kinds(self, s->side_of[s->to_act], kinds);
    KeyValues frozen = {.arguments = {s->pile_wilds > 0, s->pile_red_threes > 0, s->pile_black_threes > 0,
                                      s->turn.upcard_froze}};
    memcpy(frozen.table, v.table, sizeof(frozen.table));
    int32_t *a = v.arguments;
    a[TAKE_FROZEN] = predicate_holds(d->memo[DRAW_FROZEN], &frozen);
    a[TAKE_MAY_GO_OUT] = a[TAKE_FROZEN] < 0 || !d->reads_may_go_out ? 0 : may_go_out_with(e, kinds);
    if (a[TAKE_FROZEN] < 0 || a[TAKE_MAY_GO_OUT] < 0) return -1;
    a[TAKE_PHASE] = d->phase_codes[2][s->turn.phase], a[TAKE_TOP_RANK] = d->empty_top;
    a[TAKE_TARGET_KIND] = d->target_none;
    int allowed = answer_is_none(d->memo[DRAW_TAKE], &v);
    if (allowed > 0) allowed = draw_kind_allowed(self, d, d->kind_take); /* refused there, the reference lists none */
    if (allowed > 0)
        PyErr_SetString(PyExc_ValueError, "native core: pile.take allows taking an empty pile, which has no top card");
    return allowed != 0 ? -1 : 0;
}

/* The listing of the draw phase of the seat to act (``legal._draw_phase``), from the core's position alone, with
 * what its variant binds once in ``c``, into ``found``: 1 listed, 0 where a side that has not opened may take the
 * pile (its takes count towards its opening: ``takes.c``), -1 with an exception. */
static int draw_listing_into(const Position *self, const ListingContext *c, DrawFound *found) {
    const DrawQuestions *d = &c->draw;
    const ShapeQuestion *q = &c->shapes;
    Ending e = c->ending;
    TakeFacts t;
    memset(&t, 0, sizeof(t));
    const State *s = &self->state;
    e.permission_code = d->out_permission[s->turn.permission];
    e.discard_pending = !s->turn.last_card_bonus;
    table_values_of(self, s->to_act, e.out_values.table);
    found->takes = 0;
    int alone = 0, opened = s->team_opened[s->side_of[s->to_act]], uncovered = 0;
    if (s->pile_len == 0) {
        if (empty_pile_refused(self, d, &e) < 0) return -1;
    } else if (take_facts_of(self, d, q, &e, &t) < 0) {
        return -1;
    } else if (!opened) {
        if ((uncovered = any_opening_take(self, d, &t)) != 0) return uncovered < 0 ? -1 : 0;
    } else if ((t.gained = pile_gain(self, d, &t)) < 0 || collect_takes(self, d, q, &t, found, &alone) < 0) {
        return -1;
    }
    found->may_draw = draw_allowed(self, d, &t, alone);
    return found->may_draw < 0 ? -1 : 1;
}

/* The takes of ``found`` as a list, each the cards from hand as a tuple. */
static PyObject *found_takes_list(const DrawFound *found) {
    PyObject *takes = PyList_New(found->takes);
    for (int i = 0; takes != NULL && i < found->takes; i++) {
        long cards[2] = {found->cards[i][0], found->cards[i][1]};
        PyObject *take = tuple_of_ints(cards, found->sizes[i]);
        if (take == NULL) Py_CLEAR(takes);
        else PyList_SET_ITEM(takes, i, take);
    }
    return takes;
}

/* ``draw_listing(context)``: the listing of the draw phase as ``draw_listing_into`` finds it, (may draw, the legal
 * takes: each the cards from hand as a tuple, the top card alone first); None for a side that has not opened where
 * pile.take lets it make a take. */
static PyObject *Position_draw_listing(Position *self, PyObject *arg) {
    const ListingContext *c = context_with(arg, 0, 1);
    DrawFound found;
    int listed = c == NULL ? -1 : draw_listing_into(self, c, &found);
    if (listed <= 0) {
        if (listed < 0) return NULL;
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(ON)", found.may_draw ? Py_True : Py_False, found_takes_list(&found));
}

/* -- a listing timed in C, as random play calls it (``tools/bench_core.py --draw``) ------------------------------ */

/* One listing of the position as it stands (it moves nothing), with what ``with`` holds: -1 with an exception. */
typedef int (*ListingOnce)(Position *self, const void *with);

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The CPU seconds of the ``n`` questions ``asked``, asked ``repeat`` times over: each key built and looked up in
 * its memo (``look_up``), or built alone; negative with an exception. */
static double time_asked(const AskedKey *asked, Py_ssize_t n, long repeat, int look_up) {
    int32_t key[MEMO_MAX_WIDTH] = {0};
    volatile int32_t sink = 0; /* so that the keys built alone are not optimised away */
    double start = cpu_seconds();
    for (long r = 0; r < repeat; r++)
        for (Py_ssize_t i = 0; i < n; i++) {
            if (look_up && ask_built(asked[i].memo, &asked[i].values) == NULL) return -1.0;
            if (!look_up) build_key(asked[i].memo, &asked[i].values, key), sink = sink + key[0];
        }
    return cpu_seconds() - start;
}

/* ``list`` timed ``repeat`` times on the position, after a first listing that keeps every answer it needs and
 * records its questions: (CPU seconds a listing, of them asking its questions: the keys built and looked up, of
 * them building the keys, the questions a listing asks); NULL with an exception. */
static PyObject *time_listing(Position *self, ListingOnce list, const void *with, long repeat) {
    if (repeat < 1) return PyErr_Format(PyExc_ValueError, "native core: a listing timed %ld times, expected 1 or more",
                                        repeat);
    asked_keys.keys = PyMem_Malloc(sizeof(AskedKey) * 64);
    if (asked_keys.keys == NULL) return PyErr_NoMemory();
    asked_keys.count = 0, asked_keys.most = 64, asked_keys.lost = 0;
    int failed = list(self, with) < 0;
    AskedKey *asked = asked_keys.keys;
    Py_ssize_t n = asked_keys.count;
    asked_keys.keys = NULL;
    if (!failed && asked_keys.lost) failed = (PyErr_NoMemory(), 1);
    double seconds[3] = {0.0, 0.0, 0.0}, start = cpu_seconds();
    for (long r = 0; !failed && r < repeat; r++) failed = list(self, with) < 0;
    seconds[0] = cpu_seconds() - start;
    if (!failed) failed = (seconds[1] = time_asked(asked, n, repeat, 1)) < 0;
    if (!failed) seconds[2] = time_asked(asked, n, repeat, 0);
    PyMem_Free(asked);
    if (failed) return NULL;
    return Py_BuildValue("(dddn)", seconds[0] / repeat, seconds[1] / repeat, seconds[2] / repeat, n);
}

static int draw_listing_once(Position *self, const void *context) {
    DrawFound found;
    return draw_listing_into(self, context, &found);
}

/* The listing with its Python objects made and dropped, as ``draw_listing`` gives it (and as random play paid it
 * before it chose from ``DrawFound``). */
static int draw_listing_objects_once(Position *self, const void *context) {
    PyObject *found = Position_draw_listing(self, (PyObject *)context);
    Py_XDECREF(found);
    return found == NULL ? -1 : 0;
}

/* ``time_draw_listing(context, repeat, objects=False)``: the draw phase's listing in C (``draw_listing_into``, no
 * Python object; with ``objects``, as ``draw_listing`` makes them), as ``time_listing`` times it. */
static PyObject *Position_time_draw_listing(Position *self, PyObject *args) {
    PyObject *context;
    long repeat;
    int objects = 0;
    if (!PyArg_ParseTuple(args, "Ol|p", &context, &repeat, &objects)) return NULL;
    const ListingContext *c = context_with(context, 0, 1);
    if (c == NULL) return NULL;
    return objects ? time_listing(self, draw_listing_objects_once, c, repeat)
                   : time_listing(self, draw_listing_once, c, repeat);
}
