#!lua
