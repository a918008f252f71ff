return {,}
