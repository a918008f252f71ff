goto continue
