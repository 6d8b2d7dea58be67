// Playback of a solution on the board: play/pause, step, back, start/end, speed.

import { OPPOSITE } from "./board.js";

export const SPEEDS = [1, 2, 4, 8, 16, 32]; // moves per second

export class Playback {
  /**
   * start: Board at the solution's start; directions: "ULDR..." (blank moves).
   * onChange(board, index) is called after every step.
   */
  constructor(start, directions, onChange) {
    this.start = start.clone();
    this.board = start.clone();
    this.directions = directions;
    this.index = 0;
    this.onChange = onChange;
    this.timer = 0;
    this.speed = 4;
  }

  get length() {
    return this.directions.length;
  }

  get playing() {
    return this.timer !== 0;
  }

  step() {
    if (this.index >= this.length) return false;
    this.board.moveBlank(this.directions[this.index]);
    this.index++;
    this.onChange(this.board, this.index);
    return true;
  }

  back() {
    if (this.index <= 0) return false;
    this.index--;
    this.board.moveBlank(OPPOSITE[this.directions[this.index]]);
    this.onChange(this.board, this.index);
    return true;
  }

  seek(index) {
    this.pause();
    this.board = this.start.clone();
    this.index = 0;
    const target = Math.max(0, Math.min(this.length, index));
    for (let i = 0; i < target; i++) this.board.moveBlank(this.directions[i]);
    this.index = target;
    this.onChange(this.board, this.index);
  }

  play() {
    if (this.playing) return;
    if (this.index >= this.length) this.seek(0);
    const tick = () => {
      if (!this.step() || this.index >= this.length) {
        this.pause();
        return;
      }
      this.timer = setTimeout(tick, 1000 / this.speed);
    };
    this.timer = setTimeout(tick, Math.min(250, 1000 / this.speed));
    this.onChange(this.board, this.index);
  }

  pause() {
    if (this.timer) clearTimeout(this.timer);
    const was = this.timer !== 0;
    this.timer = 0;
    if (was) this.onChange(this.board, this.index);
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }
}
