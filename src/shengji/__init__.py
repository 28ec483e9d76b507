"""Shengji / Tractor (升级 · 拖拉机 · 80分): rules engine, judge, bots and tools."""

__version__ = "0.1.0"
