if a then
else
elseif b then
end
