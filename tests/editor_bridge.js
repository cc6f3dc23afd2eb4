// Drives the community replay editor (majsoul-replay-editor, a local checkout named by TSUMOLAB_EDITOR_DIR) under
// plain Node for tests/test_editor_diff.py. The editor's bundle (main.js) is loaded as it is, with stand-ins for the
// few browser and game globals it touches; nothing of it is copied here.
//
// stdin: one JSON object per line, one hand each:
//   {"rule": {...detail_rule flags}, "round": [chang, ju, ben, sticks], "scores": [4 ints],
//    "begin": [4 tile strings], "paishan": "tile string", "ops": [["mopai", 0, "5m"], ["qiepai", 0, "5m", false], ...]}
// stdout: one JSON object per line: {"records": [{"name", "data"}...]} (the hand's records from the first win,
// draw or abort on; every record of the hand when the job says "all_records": true) or {"error": "...", "at": op
// index}.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const vm = require('vm');

const dir = process.env.TSUMOLAB_EDITOR_DIR;
const bundle = fs.readFileSync(path.join(dir, 'main.js'), 'utf8');

function numberedTable() {
    // cfg tables keyed by id: any id answers with a neutral row
    return new Proxy({}, {
        get: (t, p) => {
            if (p in t || typeof p !== 'string' || !/^\d+$/.test(p)) return t[p];
            t[p] = {id: +p, character_id: 200001, name_chs: '', name_chs_t: '', name_jp: '', name_en: '', sound: ''};
            return t[p];
        },
    });
}

const ctx = {console: {log() {}, warn() {}, info() {}, error() {}}};
ctx.window = ctx;
ctx.cfg = {
    item_definition: {skin: {map_: numberedTable(), rows_: []}, item: {rows_: []}, title: {rows_: []},
                      view: {get: () => undefined}},
    fan: {fan: {map_: numberedTable(), get: () => ({})}},
};
ctx.GameMgr = {Inst: {}, client_language: 'chs'};
ctx.uiscript = {UI_Replay: {prototype: {}}, UI_Win: {prototype: {}}};
ctx.view = {ViewPai: {prototype: {}}, DesktopMgr: {prototype: {}}};
for (const name of ['game', 'mjcore', 'Laya', 'app', 'net']) ctx[name] = {};
vm.createContext(ctx);
vm.runInContext(bundle, ctx, {filename: 'main.js'});

// the editor tests `x instanceof Array`: jobs are parsed inside its context so that their arrays are its arrays
const parseInEditor = vm.runInContext('JSON.parse', ctx);

const RESULT_RECORDS = new Set(['RecordNewRound', 'RecordHule', 'RecordNoTile', 'RecordLiuJu', 'RecordHuleXueZhanMid',
    'RecordHuleXueZhanEnd', 'RecordGangResult', 'RecordGangResultEnd']);

function playHand(job) {
    ctx.clearProject();
    ctx.all_data.cur_actions.length = 0;  // clearProject keeps the actions of a hand left open
    const rule = Object.assign({}, job.rule, {_chang_ju_ben_num_: job.round, _scores_: job.scores});
    ctx.setConfig({category: 1, meta: {mode_id: 0}, mode: {mode: 1, detail_rule: rule}});
    for (let s = 0; s < 4; s++) ctx.begin_tiles[s] = job.begin[s];
    if (job.muyu) ctx.setMuyuSeats(job.muyu);
    ctx.setPaishan(job.paishan);
    let at = 0;
    try {
        for (; at < job.ops.length; at++) {
            const [name, ...args] = job.ops[at];
            ctx[name](...args);
        }
    } catch (e) {
        const where = String(e && e.stack || '').split('\n').find(l => l.includes('main.js:')) || '';
        return {error: String(e && e.message || e), at, where: where.trim()};
    }
    // the hand's actions: a finished hand is in all_actions, one the editor did not close is still current
    const actions = [].concat(...ctx.all_data.all_actions, ctx.all_data.cur_actions);
    const records = actions.filter(a => job.all_records || RESULT_RECORDS.has(a.name))
        .map(a => ({name: a.name, data: a.data}));
    return {records, closed: ctx.all_data.cur_actions.length === 0};
}

const rl = readline.createInterface({input: process.stdin});
rl.on('line', line => {
    if (!line.trim()) return;
    let out;
    try {
        out = playHand(parseInEditor(line));
    } catch (e) {
        out = {error: String(e && e.message || e), at: -1};
    }
    process.stdout.write(JSON.stringify(out) + '\n');
});
