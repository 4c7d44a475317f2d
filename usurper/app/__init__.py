"""The application on top of the solver: games being played (plain and full screen), bots and
policies that play without peeking, and the benchmarks that measure them."""
